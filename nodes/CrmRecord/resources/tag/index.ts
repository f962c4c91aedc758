import { defineResource } from '../../../shared/description/nodeDescription';

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

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const tagResource = defineResource(
	{ name: 'Tag', value: 'tag' },
	[
		addToRecords,
		addToRecord,
		create,
		del,
		getAll,
		getRecordCount,
		merge,
		removeFromRecords,
		removeFromRecord,
		update,
	],
	'getAll',
);
