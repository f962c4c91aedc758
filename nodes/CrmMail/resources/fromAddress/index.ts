import { defineResource } from '../../../shared/description/nodeDescription';

import * as getAll from './getAll';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const fromAddressResource = defineResource(
	{ name: 'From Address', value: 'fromAddress' },
	[getAll],
	'getAll',
);
