import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** GetCurrencies — GET /crm/{v}/org/currencies */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many currencies',
	description: 'List the currencies of the organization, the base currency included',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/org/currencies' } },
		{ rootProperty: 'currencies' },
	),
};

export const returns =
	'one item per currency, with its id, name, ISO code, symbol, exchange rate and whether it is the base';

export const description: INodeProperties[] = [];
