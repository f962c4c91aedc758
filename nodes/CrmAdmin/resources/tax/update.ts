import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { runBatched } from '../../../shared/transport';
import { idParameter, requireSome } from '../shared';
import { sequenceNumberField, taxBody, taxIdField } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

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

/** UpdateTaxes — PUT /crm/{v}/org/taxes, up to 100 taxes per request, items carry `id` (custom operation) */
export const { operation, returns, description, execute } = writeOperation('update', {
	resource: 'tax',
	thing: 'tax',
	description: 'Update taxes by ID',
	properties,
	async execute() {
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
	},
});
