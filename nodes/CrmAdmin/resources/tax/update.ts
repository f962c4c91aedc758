import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { runBatched } from '../../../shared/transport';
import { idParameter, requireSome } from '../shared';
import { sequenceNumberField, taxBody, taxIdField } from './shared';
import { getParameter } from '../../../shared/parameters';

/** UpdateTaxes — PUT /crm/{v}/org/taxes, up to 100 taxes per request, items carry `id` (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a tax',
	description: 'Update taxes by ID',
};

export const returns = 'one item per updated tax: its id and status';

const properties: INodeProperties[] = [
	taxIdField,
	updateFieldsCollection([
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		sequenceNumberField,
		{
			displayName: 'Value',
			name: 'value',
			type: 'number',
			typeOptions: { numberPrecision: 3 },
			default: 0,
			description: 'Tax rate in percent',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tax'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		build: (itemIndex) => {
			const id = idParameter.call(this, 'taxId', 'Tax', itemIndex);
			const fields = taxBody.call(
				this,
				getParameter(this, 'updateFields', itemIndex, {}) as IDataObject,
				itemIndex,
			);
			requireSome.call(this, fields, 'Update Fields', itemIndex);
			return { key: 'taxes', payload: { id, ...fields } };
		},
		request: (_key, taxes) =>
			itemListRequest({ method: 'PUT', path: '/org/taxes' }, 'taxes', taxes),
	});
}
