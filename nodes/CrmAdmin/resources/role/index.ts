import { defineResource } from '../../../shared/description/nodeDescription';

import * as get from './get';
import * as getAll from './getAll';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const roleResource = defineResource(
	{ name: 'Role', value: 'role' },
	[get, getAll],
	'getAll',
);
