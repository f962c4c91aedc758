import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { requireSome, writeResults } from '../shared';
import { baseCurrencyPreSend, currencyBody, currencyUpdateFields } from './shared';
import { getParameter } from '../../../shared/parameters';
import { crmRouting } from '../../../shared/transport';

/** `base_currency` body of UpdateBaseCurrency from the update fields. */
const updateBasePreSend = baseCurrencyPreSend(function (itemIndex) {
	const base = currencyBody(
		this,
		getParameter(this, 'updateFields', itemIndex, {}) as IDataObject,
		itemIndex,
		false,
	);
	requireSome.call(this, base, 'Update Fields', itemIndex);
	return base;
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
