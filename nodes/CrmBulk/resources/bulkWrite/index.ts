import { defineResource } from '../../../shared/description/nodeDescription';

import * as create from './create';
import * as downloadResult from './downloadResult';
import * as get from './get';
import * as uploadFile from './uploadFile';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const bulkWriteResource = defineResource(
	{ name: 'Bulk Write', value: 'bulkWrite' },
	[create, downloadResult, get, uploadFile],
	'create',
);
