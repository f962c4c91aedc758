import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireSome, writeResults } from '../shared';
import { currencyBody, currencyFormatFields } from './shared';

/** `base_currency` body of UpdateBaseCurrency from the update fields. */
export async function updateBasePreSend(this: IExecuteSingleFunctions, request: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const base = currencyBody(this, this.getNodeParameter('updateFields', {}) as IDataObject, itemIndex, false);
	requireSome.call(this, base, 'Update Fields', itemIndex);
	request.body = { base_currency: base };
	return request;
}

/** UpdateBaseCurrency — PUT /crm/{v}/org/currencies/actions/enable */
export const operation: INodePropertyOptions = {
	name: 'Update Base Currency',
	value: 'updateBaseCurrency',
	action: 'Update the base currency',
	description: 'Change the base currency to another added currency, or its name, symbol and format',
	routing: {
		request: { method: 'PUT', url: '/org/currencies/actions/enable' },
		send: { preSend: [updateBasePreSend] },
		output: { postReceive: [writeResults] },
	},
};

const properties: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			...currencyFormatFields.slice(0, 2),
			{
				displayName: 'ISO Code',
				name: 'iso_code',
				type: 'string',
				default: '',
				placeholder: 'EUR',
				description: 'Make this added currency the base; every exchange rate is re-based to it',
			},
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			currencyFormatFields[2],
			{ displayName: 'Symbol', name: 'symbol', type: 'string', default: '' },
			currencyFormatFields[3],
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['currency'], operation: ['updateBaseCurrency'] } }, properties);
