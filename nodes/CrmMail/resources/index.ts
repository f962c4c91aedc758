import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { fromAddressDescription } from './fromAddress';
import { mailCustomOperations, mailDescription } from './mail';

type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** One resource of the node: its selector option, its properties, and its custom operations. */
export interface ResourceModule {
	option: INodePropertyOptions;
	description: INodeProperties[];
	customOperations?: Record<string, CustomOperation>;
}

/** The node's resources, in selector order. */
export const resources: ResourceModule[] = [
	{ option: { name: 'Mail', value: 'mail' }, description: mailDescription, customOperations: mailCustomOperations },
	{ option: { name: 'From Address', value: 'fromAddress' }, description: fromAddressDescription },
];

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resources.map((r) => r.option),
	default: 'mail',
	// every routed operation goes through the node's request runner (see shared/transport/runner.ts)
	routing: { send: { paginate: true } },
};

export const resourceProperties: INodeProperties[] = resources.flatMap((r) => r.description);

export const customOperations: Record<string, Record<string, CustomOperation>> = Object.fromEntries(
	resources.filter((r) => r.customOperations).map((r) => [r.option.value as string, r.customOperations!]),
);
