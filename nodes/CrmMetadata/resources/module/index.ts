import { defineResource } from '../../../shared/description/nodeDescription';

import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const moduleResource = defineResource(
	{ name: 'Module', value: 'module' },
	[get, getAll, update],
	'getAll',
);
