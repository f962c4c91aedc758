import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetCurrencies — GET /crm/{v}/org/currencies */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many currencies',
	description: 'List the currencies of the organization, the base currency included',
	routing: { request: { method: 'GET', url: '/org/currencies' } },
};

export const returns =
	'one item per currency, with its id, name, ISO code, symbol, exchange rate and whether it is the base';

export const description: INodeProperties[] = [];

/** Key of the items in the response (docs/protocol.md §5.9). */
export const rootProperty = 'currencies';
