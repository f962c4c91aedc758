import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetTaxes — GET /crm/{v}/org/taxes (the `taxes` list) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many taxes',
	description: 'List the taxes of the organization in sequence order',
	routing: { request: { method: 'GET', url: '/org/taxes' } },
};

export const returns =
	'one item per tax in sequence order, with its id, name, rate in percent and sequence number';

export const description: INodeProperties[] = [];

/** Key of the items in the response (docs/protocol.md §5.9). */
export const rootProperty = 'taxes';
