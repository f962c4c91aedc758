import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { idOptions } from '../shared';
import { inventoryQueryOptions } from './shared';

/** GetInventoryTemplatebyID — GET /crm/{v}/settings/inventory_templates/{id} (v2.1 only) */
export const operation = getByIdOption({
	thing: 'inventory template',
	path: '/settings/inventory_templates',
	idParameter: 'templateId',
	rootProperty: 'inventory_templates',
	description: 'Retrieve one inventory template with its content',
	v21Only: 'Inventory Template → Get (GetInventoryTemplatebyID)',
});

export const returns =
	'the inventory template with its id, name and content (an error when no template has the ID)';

const properties: INodeProperties[] = [
	idOptions(
		'Inventory Template Name or ID',
		'templateId',
		'getInventoryTemplates',
		[],
		'Inventory template to retrieve',
	),
	inventoryQueryOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['inventoryTemplate'], operation: ['get'] } },
	properties,
);
