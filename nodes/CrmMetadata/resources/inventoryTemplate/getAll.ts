import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, requireV21 } from '../../../shared/transport';
import { inventoryModuleField, inventoryQueryOptions } from './shared';

/** GetInventoryTemplates — GET /crm/{v}/settings/inventory_templates?module=&category=&sort_by=&sort_order= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many inventory templates',
	description: 'List the inventory templates of a module, filtered and sorted',
	routing: crmRouting(
		{
			request: { method: 'GET', url: '/settings/inventory_templates' },
			send: { preSend: [requireV21('Inventory Template → Get Many (GetInventoryTemplates)')] },
		},
		{ rootProperty: 'inventory_templates' },
	),
};

export const returns =
	'one item per inventory template of the module, with its id, name and folder';

const properties: INodeProperties[] = [
	{ ...inventoryModuleField, routing: { send: { type: 'query', property: 'module' } } },
	inventoryQueryOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['inventoryTemplate'], operation: ['getAll'] } },
	properties,
);
