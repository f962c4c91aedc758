import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { channelCustomOperations, channelDescription } from './channel';

type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** One resource of the node: its selector option, its properties, and its batched operations. */
export interface ResourceModule {
	option: INodePropertyOptions;
	description: INodeProperties[];
	customOperations?: Record<string, CustomOperation>;
}

export const resources: ResourceModule[] = [
	{ option: { name: 'Channel', value: 'channel' }, description: channelDescription, customOperations: channelCustomOperations },
];

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resources.map((r) => r.option),
	default: 'channel',
	// every routed operation goes through the node's request runner (see shared/transport/runner.ts)
	routing: { send: { paginate: true } },
};

export const resourceProperties: INodeProperties[] = resources.flatMap((r) => r.description);

export const customOperations: Record<string, Record<string, CustomOperation>> = Object.fromEntries(
	resources.filter((r) => r.customOperations).map((r) => [r.option.value as string, r.customOperations!]),
);
