import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';

/** GetCurrency — GET /crm/{v}/org/currencies/{id} */
export const operation = getByIdOption({
	thing: 'currency',
	path: '/org/currencies',
	idParameter: 'currencyId',
	rootProperty: 'currencies',
	description: 'Retrieve one currency by ID',
});

export const returns =
	'the currency with its id, name, ISO code, symbol and exchange rate (an error when no currency has the ID)';

export const currencyIdField: INodeProperties = {
	displayName: 'Currency Name or ID',
	name: 'currencyId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getCurrencies' },
	default: '',
	required: true,
	description:
		'The currency. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['currency'], operation: ['get'] } },
	[currencyIdField],
);
