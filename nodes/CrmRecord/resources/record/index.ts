import { defineResource } from '../../../shared/description/nodeDescription';

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

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const recordResource = defineResource(
	{ name: 'Record', value: 'record' },
	[
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
	],
	'get',
);
