import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as downloadResult from './downloadResult';
import * as get from './get';

const operations = [create, downloadResult, get];

export const bulkReadDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bulkRead'] } },
		options: operations.map((op) => op.operation),
		default: 'create',
	},
	...operations.flatMap((op) => op.description),
];

/** Create Job polls and downloads, so it runs as a custom operation; the reads stay declarative. */
export const bulkReadCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	create: create.execute,
};
