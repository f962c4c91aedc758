import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as addToDeal from './addToDeal';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as getAllOfDeal from './getAllOfDeal';
import * as getOfDeal from './getOfDeal';
import * as removeFromDeal from './removeFromDeal';
import * as update from './update';

const operations = [addToDeal, create, del, get, getAll, getAllOfDeal, getOfDeal, removeFromDeal, update];

export const contactRoleDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contactRole'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];

/** Operations that send many input items per request run as custom operations. */
export const contactRoleCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	create: create.execute,
	update: update.execute,
	delete: del.execute,
};
