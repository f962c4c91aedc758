import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** GetTaxes — GET /crm/{v}/org/taxes (the `taxes` list) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many taxes',
	description: 'List the taxes of the organization in sequence order',
	routing: crmRouting({ request: { method: 'GET', url: '/org/taxes' } }, { rootProperty: 'taxes' }),
};

export const returns =
	'one item per tax in sequence order, with its id, name, rate in percent and sequence number';

export const description: INodeProperties[] = [];
