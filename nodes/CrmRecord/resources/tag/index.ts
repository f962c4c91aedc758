import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as addToRecord from './addToRecord';
import * as addToRecords from './addToRecords';
import * as create from './create';
import * as del from './delete';
import * as getAll from './getAll';
import * as getRecordCount from './getRecordCount';
import * as merge from './merge';
import * as removeFromRecord from './removeFromRecord';
import * as removeFromRecords from './removeFromRecords';
import * as update from './update';

const operations = [addToRecords, addToRecord, create, del, getAll, getRecordCount, merge, removeFromRecords, removeFromRecord, update];

export const tagDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];

/** Operations that send many input items per request run as custom operations. */
export const tagCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	create: create.execute,
	update: update.execute,
	addToRecords: addToRecords.execute,
	removeFromRecords: removeFromRecords.execute,
};
