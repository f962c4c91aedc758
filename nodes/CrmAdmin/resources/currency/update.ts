import type { INodeProperties } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { runBatched } from '../../../shared/transport';
import { idParameter, putItemsRequest } from '../shared';
import { currencyIdField } from './get';
import {
	CURRENCY_BATCH_SIZE,
	currencyChanges,
	currencyUpdateFields,
	isActiveField,
} from './shared';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	currencyIdField,
	updateFieldsCollection([
		isActiveField,
		...currencyUpdateFields({
			displayName: 'Exchange Rate',
			name: 'exchange_rate',
			type: 'string',
			default: '',
			placeholder: '0.92',
			description:
				'Units of this currency per one unit of the base currency (the base currency stays at 1)',
		}),
	]),
];

/**
 * UpdateCurrencies — PUT /crm/{v}/org/currencies (up to 10 per request, items carry `id`);
 * UpdateCurrency — PUT /crm/{v}/org/currencies/{id} (a chunk of one). Custom operation.
 */
export const { operation, returns, description, execute } = writeOperation('update', {
	resource: 'currency',
	thing: 'currency',
	description: 'Update currencies by ID',
	properties,
	async execute() {
		return await runBatched(this, {
			batchSize: CURRENCY_BATCH_SIZE,
			build: (itemIndex) => {
				const id = idParameter.call(this, 'currencyId', 'Currency', itemIndex);
				return { key: 'currencies', payload: { ...currencyChanges(this, itemIndex), id } };
			},
			request: (_key, currencies) => putItemsRequest('/org/currencies', 'currencies', currencies),
		});
	},
});
