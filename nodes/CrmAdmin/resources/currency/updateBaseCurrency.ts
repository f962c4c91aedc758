import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { writeResults } from '../shared';
import { baseCurrencyPreSend, currencyChanges, currencyUpdateFields } from './shared';
import { crmRouting } from '../../../shared/transport';

/** `base_currency` body of UpdateBaseCurrency from the update fields. */
const updateBasePreSend = baseCurrencyPreSend(function (itemIndex) {
	return currencyChanges(this, itemIndex);
});

/** UpdateBaseCurrency — PUT /crm/{v}/org/currencies/actions/enable */
export const operation: INodePropertyOptions = {
	name: 'Update Base Currency',
	value: 'updateBaseCurrency',
	action: 'Update the base currency',
	description: 'Change the base currency to another added currency, or its name, symbol and format',
	routing: crmRouting({
		request: { method: 'PUT', url: '/org/currencies/actions/enable' },
		send: { preSend: [updateBasePreSend] },
		output: { postReceive: [writeResults] },
	}),
};

export const returns = 'the id of the base currency and the status of the change';

const properties: INodeProperties[] = [
	updateFieldsCollection(
		currencyUpdateFields({
			displayName: 'ISO Code',
			name: 'iso_code',
			type: 'string',
			default: '',
			placeholder: 'EUR',
			description: 'Make this added currency the base; every exchange rate is re-based to it',
		}),
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['currency'], operation: ['updateBaseCurrency'] } },
	properties,
);
