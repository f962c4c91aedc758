import { defineResource } from '../../../shared/description/nodeDescription';

import * as create from './create';
import * as enableMultiCurrency from './enableMultiCurrency';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';
import * as updateBaseCurrency from './updateBaseCurrency';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const currencyResource = defineResource(
	{ name: 'Currency', value: 'currency' },
	[create, enableMultiCurrency, get, getAll, update, updateBaseCurrency],
	'getAll',
);
