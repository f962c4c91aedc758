import { defineResource } from '../../../shared/description/nodeDescription';

import * as get from './get';
import * as transition from './transition';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const blueprintResource = defineResource(
	{ name: 'Blueprint', value: 'blueprint' },
	[get, transition],
	'get',
);
