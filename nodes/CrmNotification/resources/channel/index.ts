import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as disable from './disable';
import * as enable from './enable';
import * as getAll from './getAll';
import * as removeEvents from './removeEvents';
import * as update from './update';

const operations = [disable, enable, getAll, removeEvents, update];

export const channelDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['channel'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];

/** Operations that send many input items per request run as custom operations. */
export const channelCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	enable: enable.execute,
	update: update.execute,
};
