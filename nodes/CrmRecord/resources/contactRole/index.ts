import { defineResource } from '../../../shared/description/nodeDescription';

import * as addToDeal from './addToDeal';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as getAllOfDeal from './getAllOfDeal';
import * as getOfDeal from './getOfDeal';
import * as removeFromDeal from './removeFromDeal';
import * as update from './update';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const contactRoleResource = defineResource(
	{ name: 'Contact Role', value: 'contactRole' },
	[addToDeal, create, del, get, getAll, getAllOfDeal, getOfDeal, removeFromDeal, update],
	'getAll',
);
