import { assembleResources } from '../../shared/description/nodeDescription';

import { channelResource } from './channel';

/** The node's resources, in selector order. Adding a resource = one folder + one entry here. */
export const resources = [channelResource];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'channel');
