import type { ResourceModule } from '../../shared/node';
import { assembleResources } from '../../shared/node';

import { channelCustomOperations, channelDescription } from './channel';

/** The node's resources, in selector order. */
export const resources: ResourceModule[] = [
	{ option: { name: 'Channel', value: 'channel' }, description: channelDescription, customOperations: channelCustomOperations },
];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'channel');
