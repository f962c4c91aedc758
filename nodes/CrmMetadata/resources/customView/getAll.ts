import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllLimit } from '../../../shared/description/properties';
import { moduleQueryField } from '../shared';

/** GetCustomViews — GET /crm/{v}/settings/custom_views?module=, paged by the node's request runner */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many custom views',
	description: 'List the custom views of a module',
	routing: { request: { method: 'GET', url: '/settings/custom_views' } },
};

export const returns =
	'one item per custom view of the module, with its id, name and whether it is the default';

const properties: INodeProperties[] = [moduleQueryField, ...returnAllLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['customView'], operation: ['getAll'] } },
	properties,
);

/** Key of the items in the response (docs/protocol.md §5.7). */
export const rootProperty = 'custom_views';
