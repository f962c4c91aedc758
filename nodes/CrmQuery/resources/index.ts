import type { ResourceModule } from '../../shared/node';
import { assembleResources } from '../../shared/node';

import { queryDescription } from './query';

/** The node's resources, in selector order. */
export const resources: ResourceModule[] = [{ option: { name: 'Query', value: 'query' }, description: queryDescription }];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
} = assembleResources(resources, 'query');
