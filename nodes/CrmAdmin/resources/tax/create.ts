import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../../shared/description/collections';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { runBatched } from '../../../shared/transport';
import { sequenceNumberField, taxBody } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'taxName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Sales Tax',
	},
	{
		displayName: 'Value',
		name: 'taxValue',
		type: 'number',
		typeOptions: { numberPrecision: 3 },
		default: 0,
		required: true,
		description: 'Tax rate in percent',
	},
	additionalFieldsCollection([sequenceNumberField]),
];

/** CreateTaxes — POST /crm/{v}/org/taxes, up to 100 taxes per request (custom operation) */
export const { operation, returns, description, execute } = writeOperation('create', {
	resource: 'tax',
	thing: 'tax',
	description: 'Create taxes',
	properties,
	async execute() {
		return await runBatched(this, {
			build: (itemIndex) => {
				const additional = getParameter(this, 'additionalFields', itemIndex, {}) as IDataObject;
				const payload = taxBody.call(
					this,
					{
						...additional,
						name: getParameter(this, 'taxName', itemIndex),
						value: getParameter(this, 'taxValue', itemIndex),
					},
					itemIndex,
				);
				return { key: 'taxes', payload };
			},
			request: (_key, taxes) =>
				itemListRequest({ method: 'POST', path: '/org/taxes' }, 'taxes', taxes),
		});
	},
});
