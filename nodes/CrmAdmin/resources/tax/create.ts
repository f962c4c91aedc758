import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../../shared/description/collections';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { runBatched } from '../../../shared/transport';
import { sequenceNumberField, taxBody } from './shared';
import { getParameter } from '../../../shared/parameters';

/** CreateTaxes — POST /crm/{v}/org/taxes, up to 100 taxes per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a tax',
	description: 'Create taxes',
};

export const returns = 'one item per created tax: its id and status';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['tax'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
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
}
