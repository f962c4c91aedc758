import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireV21 } from '../../../shared/transport';
import { idOptions } from '../common';
import { inventoryQueryOptions } from './shared';

/** GetInventoryTemplatebyID — GET /crm/{v}/settings/inventory_templates/{id} (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get an inventory template',
	description: 'Retrieve one inventory template with its content; API v2.1 only (GetInventoryTemplatebyID)',
	routing: {
		request: { method: 'GET', url: '=/settings/inventory_templates/{{ toPathSegment($parameter.templateId) }}' },
		send: { preSend: [requireV21('Inventory Template → Get (GetInventoryTemplatebyID)')] },
	},
};

const properties: INodeProperties[] = [
	idOptions('Inventory Template Name or ID', 'templateId', 'getInventoryTemplates', [], 'Inventory template to retrieve'),
	inventoryQueryOptions,
];

export const description = updateDisplayOptions({ show: { resource: ['inventoryTemplate'], operation: ['get'] } }, properties);
