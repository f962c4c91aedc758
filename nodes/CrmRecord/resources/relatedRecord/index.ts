import { defineResource } from '../../../shared/description/nodeDescription';

import * as delink from './delink';
import * as get from './get';
import * as getAll from './getAll';
import * as link from './link';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const relatedRecordResource = defineResource(
	{ name: 'Related Record', value: 'relatedRecord' },
	[delink, get, getAll, link],
	'getAll',
);
