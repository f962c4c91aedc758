import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../../shared/description/collections';
import { writeResults } from '../shared';
import {
	baseCurrencyPreSend,
	currencyFormatFields,
	currencyNameField,
	isoCodeField,
	newCurrencyBody,
	symbolField,
} from './shared';
import { crmRouting } from '../../../shared/transport';

/** `base_currency` body of EnableMultipleCurrencies from the parameters. */
const enablePreSend = baseCurrencyPreSend(function (itemIndex) {
	return newCurrencyBody(this, itemIndex);
});

/** EnableMultipleCurrencies — POST /crm/{v}/org/currencies/actions/enable */
export const operation: INodePropertyOptions = {
	name: 'Enable Multi-Currency',
	value: 'enableMultiCurrency',
	action: 'Enable multiple currencies',
	description:
		'Switch the organization to multi-currency with the given base currency; allowed once',
	routing: crmRouting({
		request: { method: 'POST', url: '/org/currencies/actions/enable' },
		send: { preSend: [enablePreSend] },
		output: { postReceive: [writeResults] },
	}),
};

export const returns = 'the id of the base currency and the status of the change';

const properties: INodeProperties[] = [
	{ ...isoCodeField, description: 'Three-letter ISO 4217 code of the base (home) currency' },
	currencyNameField,
	symbolField,
	additionalFieldsCollection(currencyFormatFields),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['currency'], operation: ['enableMultiCurrency'] } },
	properties,
);
