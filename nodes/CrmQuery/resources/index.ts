import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { queryDescription } from './query';

/** One resource of the node: its selector option and its properties. */
export interface ResourceModule {
	option: INodePropertyOptions;
	description: INodeProperties[];
}

/** The node's resources, in selector order. */
export const resources: ResourceModule[] = [{ option: { name: 'Query', value: 'query' }, description: queryDescription }];

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resources.map((r) => r.option),
	default: 'query',
	// every routed operation pages through a pagination function (Query: its own, see query/run.ts)
	routing: { send: { paginate: true } },
};

export const resourceProperties: INodeProperties[] = resources.flatMap((r) => r.description);
