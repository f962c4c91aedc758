import { defineResource } from '../../../shared/description/nodeDescription';

import * as create from './create';
import * as downloadResult from './downloadResult';
import * as get from './get';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const bulkReadResource = defineResource(
	{ name: 'Bulk Read', value: 'bulkRead' },
	[create, downloadResult, get],
	'create',
);
