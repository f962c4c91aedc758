import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as delink from './delink';
import * as get from './get';
import * as getAll from './getAll';
import * as link from './link';

const operations = [delink, get, getAll, link];

export const relatedRecordDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['relatedRecord'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];

/** Operations that send many input items per request run as custom operations. */
export const relatedRecordCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	link: link.execute,
	delink: delink.execute,
};
