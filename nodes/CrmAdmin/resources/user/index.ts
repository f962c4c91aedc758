import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

const operations = [create, del, get, getAll, update];

export const userDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];

/** Writes that send many input items per request run as custom operations. */
export const userCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	create: create.execute,
	update: update.execute,
};
