import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllLimit } from '../../../shared/description/properties';
import { moduleQueryField } from '../shared';
import { crmRouting } from '../../../shared/transport';

/** GetCustomViews — GET /crm/{v}/settings/custom_views?module=, paged by the node's request runner */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many custom views',
	description: 'List the custom views of a module',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/settings/custom_views' } },
		{ rootProperty: 'custom_views' },
	),
};

export const returns =
	'one item per custom view of the module, with its id, name and whether it is the default';

const properties: INodeProperties[] = [moduleQueryField, ...returnAllLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['customView'], operation: ['getAll'] } },
	properties,
);
