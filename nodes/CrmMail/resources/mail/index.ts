import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as send from './send';

const operations = [send];

export const mailDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['mail'] } },
		options: operations.map((op) => op.operation),
		default: 'send',
	},
	...operations.flatMap((op) => op.description),
];

/** SendMail uploads attachments before sending and batches mails per record: a custom operation. */
export const mailCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	send: send.execute,
};
