import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { CustomOperation } from '../../shared/node';

export type { CustomOperation };

/** One operation file: its selector option, its properties, and (custom operations) its execute. */
export interface OperationModule {
	operation: INodePropertyOptions;
	description: INodeProperties[];
	execute?: CustomOperation;
}

/** The operation selector of a resource followed by every operation's properties. */
export function resourceDescription(resource: string, operations: OperationModule[], defaultOperation: string): INodeProperties[] {
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operations.map((op) => op.operation),
			default: defaultOperation,
		},
		...operations.flatMap((op) => op.description),
	];
}

/** Operations that run as custom operations (list-body writes, ≤100 items per request). */
export function customOperationsOf(operations: OperationModule[]): Record<string, CustomOperation> {
	return Object.fromEntries(operations.filter((op) => op.execute).map((op) => [op.operation.value as string, op.execute!]));
}

/** A numeric ID typed by hand or chosen from a list. */
export function idOptions(displayName: string, name: string, loadOptionsMethod: string, dependsOn: string[], description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'options',
		typeOptions: { loadOptionsMethod, loadOptionsDependsOn: dependsOn },
		default: '',
		required: true,
		description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

/** The Deals layout every pipeline operation names (`layout_id`, docs/protocol.md §5.8). */
export const dealLayoutField: INodeProperties = {
	displayName: 'Deals Layout Name or ID',
	name: 'layoutId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getDealLayouts' },
	default: '',
	required: true,
	description:
		'Layout of the Deals module the pipelines belong to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	routing: { send: { type: 'query', property: 'layout_id' } },
};
