import { inventoryModuleField, inventoryQueryOptions } from './shared';
import { settingsListOperation } from '../shared';

/** GetInventoryTemplates — GET /crm/{v}/settings/inventory_templates?module=&category=&sort_by=&sort_order= (v2.1 only) */
export const { operation, returns, description } = settingsListOperation({
	resource: 'inventoryTemplate',
	things: 'inventory templates',
	url: '/settings/inventory_templates',
	rootProperty: 'inventory_templates',
	description: 'List the inventory templates of a module, filtered and sorted',
	v21Only: 'Inventory Template → Get Many (GetInventoryTemplates)',
	returns: 'one item per inventory template of the module, with its id, name and folder',
	properties: [
		{ ...inventoryModuleField, routing: { send: { type: 'query', property: 'module' } } },
		inventoryQueryOptions,
	],
});
