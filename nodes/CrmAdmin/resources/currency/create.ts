import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../../shared/description/collections';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { runBatched } from '../../../shared/transport';
import {
	CURRENCY_BATCH_SIZE,
	currencyFormatFields,
	currencyNameField,
	isActiveField,
	isoCodeField,
	newCurrencyBody,
	symbolField,
} from './shared';
import { getParameter } from '../../../shared/parameters';

/** AddCurrencies — POST /crm/{v}/org/currencies, up to 10 currencies per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Add',
	value: 'create',
	action: 'Add a currency',
	description: 'Add currencies to a multi-currency organization',
};

export const returns = 'one item per added currency: its id and status';

const properties: INodeProperties[] = [
	isoCodeField,
	currencyNameField,
	symbolField,
	{
		displayName: 'Exchange Rate',
		name: 'exchangeRate',
		type: 'string',
		default: '',
		required: true,
		placeholder: '0.92',
		description: 'Units of this currency per one unit of the base currency',
	},
	additionalFieldsCollection([isActiveField, ...currencyFormatFields]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['currency'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		batchSize: CURRENCY_BATCH_SIZE,
		build: (itemIndex) => {
			const payload = newCurrencyBody(this, itemIndex, {
				exchange_rate: getParameter(this, 'exchangeRate', itemIndex),
			});
			return { key: 'currencies', payload };
		},
		request: (_key, currencies) =>
			itemListRequest({ method: 'POST', path: '/org/currencies' }, 'currencies', currencies),
	});
}
