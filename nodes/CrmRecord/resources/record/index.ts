import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as assignTerritories from './assignTerritories';
import * as convertLead from './convertLead';
import * as count from './count';
import * as create from './create';
import * as del from './delete';
import * as deleteMany from './deleteMany';
import * as deletePhoto from './deletePhoto';
import * as downloadPhoto from './downloadPhoto';
import * as get from './get';
import * as getAll from './getAll';
import * as getMassUpdateStatus from './getMassUpdateStatus';
import * as listDeleted from './listDeleted';
import * as massUpdate from './massUpdate';
import * as removeTerritories from './removeTerritories';
import * as search from './search';
import * as update from './update';
import * as uploadPhoto from './uploadPhoto';
import * as upsert from './upsert';

const operations = [
	assignTerritories,
	convertLead,
	count,
	create,
	del,
	deleteMany,
	deletePhoto,
	downloadPhoto,
	get,
	getAll,
	getMassUpdateStatus,
	listDeleted,
	massUpdate,
	removeTerritories,
	search,
	update,
	uploadPhoto,
	upsert,
];

export const recordDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['record'] } },
		options: operations.map((op) => op.operation),
		default: 'get',
	},
	...operations.flatMap((op) => op.description),
];

/** Operations that send many input items per request run as custom operations. */
export const recordCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	create: create.execute,
	update: update.execute,
	upsert: upsert.execute,
	delete: del.execute,
	deleteMany: deleteMany.execute,
	assignTerritories: assignTerritories.execute,
	removeTerritories: removeTerritories.execute,
};
