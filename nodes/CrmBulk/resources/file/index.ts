import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as get from './get';
import * as upload from './upload';

const operations = [get, upload];

export const fileDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['file'] } },
		options: operations.map((op) => op.operation),
		default: 'upload',
	},
	...operations.flatMap((op) => op.description),
];

/** Upload sends multipart bodies, so it runs as a custom operation; Get stays declarative. */
export const fileCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	upload: upload.execute,
};
