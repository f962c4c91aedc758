import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { runBatched } from '../../../shared/transport';
import { idParameter, putItemsRequest, requireSome } from '../shared';
import { currencyIdField } from './get';
import { CURRENCY_BATCH_SIZE, currencyBody, currencyUpdateFields, isActiveField } from './shared';
import { getParameter } from '../../../shared/parameters';

/**
 * UpdateCurrencies — PUT /crm/{v}/org/currencies (up to 10 per request, items carry `id`);
 * UpdateCurrency — PUT /crm/{v}/org/currencies/{id} (a chunk of one). Custom operation.
 */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a currency',
	description: 'Update currencies by ID',
};

export const returns = 'one item per updated currency: its id and status';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['currency'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		batchSize: CURRENCY_BATCH_SIZE,
		build: (itemIndex) => {
			const id = idParameter.call(this, 'currencyId', 'Currency', itemIndex);
			const fields = currencyBody(
				this,
				getParameter(this, 'updateFields', itemIndex, {}) as IDataObject,
				itemIndex,
				false,
			);
			requireSome.call(this, fields, 'Update Fields', itemIndex);
			return { key: 'currencies', payload: { ...fields, id } };
		},
		request: (_key, currencies) => putItemsRequest('/org/currencies', 'currencies', currencies),
	});
}
