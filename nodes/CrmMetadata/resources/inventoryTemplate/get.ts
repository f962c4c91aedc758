import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, noneWithId, requireV21 } from '../../../shared/transport';
import { idOptions } from '../shared';
import { inventoryQueryOptions } from './shared';

/** GetInventoryTemplatebyID — GET /crm/{v}/settings/inventory_templates/{id} (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get an inventory template',
	description: 'Retrieve one inventory template with its content',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/settings/inventory_templates/{{ toPathSegment($parameter.templateId) }}',
			},
			send: { preSend: [requireV21('Inventory Template → Get (GetInventoryTemplatebyID)')] },
		},
		{
			rootProperty: 'inventory_templates',
			notFound: noneWithId('inventory template', 'templateId'),
		},
	),
};

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
