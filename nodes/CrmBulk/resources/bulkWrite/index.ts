import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as downloadResult from './downloadResult';
import * as get from './get';
import * as uploadFile from './uploadFile';

const operations = [create, downloadResult, get, uploadFile];

export const bulkWriteDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bulkWrite'] } },
		options: operations.map((op) => op.operation),
		default: 'create',
	},
	...operations.flatMap((op) => op.description),
];

/** Uploads, polling and two-step downloads run as custom operations; Get Job stays declarative. */
export const bulkWriteCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	create: create.execute,
	downloadResult: downloadResult.execute,
	uploadFile: uploadFile.execute,
};
