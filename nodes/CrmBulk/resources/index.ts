import { assembleResources } from '../../shared/description/nodeDescription';

import { bulkReadResource } from './bulkRead';
import { bulkWriteResource } from './bulkWrite';
import { fileResource } from './file';

/** The node's resources, in selector order. Adding a resource = one folder + one entry here. */
export const resources = [bulkReadResource, bulkWriteResource, fileResource];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'bulkRead');
