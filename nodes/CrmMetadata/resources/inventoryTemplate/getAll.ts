import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inventoryModuleField, inventoryQueryOptions } from './shared';
import { settingsListOption } from '../shared';

/** GetInventoryTemplates — GET /crm/{v}/settings/inventory_templates?module=&category=&sort_by=&sort_order= (v2.1 only) */
export const operation = settingsListOption({
	things: 'inventory templates',
	url: '/settings/inventory_templates',
	rootProperty: 'inventory_templates',
	description: 'List the inventory templates of a module, filtered and sorted',
	v21Only: 'Inventory Template → Get Many (GetInventoryTemplates)',
});

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
