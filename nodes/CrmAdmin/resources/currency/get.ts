import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** A missing ID: "No currency with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('currency', 'currencyId');

/** GetCurrency — GET /crm/{v}/org/currencies/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a currency',
	description: 'Retrieve one currency by ID',
	routing: crmRouting(byIdRouting('GET', '/org/currencies', 'currencyId', 'Currency ID'), {
		rootProperty: 'currencies',
		notFound,
	}),
};

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
