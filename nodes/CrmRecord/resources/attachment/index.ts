import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as del from './delete';
import * as download from './download';
import * as downloadFieldAttachment from './downloadFieldAttachment';
import * as getAll from './getAll';
import * as uploadFile from './uploadFile';
import * as uploadLink from './uploadLink';

const operations = [del, download, downloadFieldAttachment, getAll, uploadFile, uploadLink];

export const attachmentDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['attachment'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];

/** Operations that send many input items per request run as custom operations. */
export const attachmentCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	delete: del.execute,
};
