import { assembleResources } from '../../shared/description/nodeDescription';

import { queryResource } from './query';

/** The node's resources, in selector order. Adding a resource = one folder + one entry here. */
export const resources = [queryResource];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'query');
