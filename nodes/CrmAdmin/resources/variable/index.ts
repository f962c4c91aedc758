import { defineResource } from '../../../shared/description/nodeDescription';

import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const variableResource = defineResource(
	{ name: 'Variable', value: 'variable' },
	[create, del, get, getAll, update],
	'getAll',
);
