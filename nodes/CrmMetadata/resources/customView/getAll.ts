import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllLimit } from '../../../shared/description/properties';
import { moduleQueryField, settingsListOption } from '../shared';

/** GetCustomViews — GET /crm/{v}/settings/custom_views?module=, paged by its request runner (crmRouting) */
export const operation = settingsListOption({
	things: 'custom views',
	url: '/settings/custom_views',
	rootProperty: 'custom_views',
	description: 'List the custom views of a module',
});

export const returns =
	'one item per custom view of the module, with its id, name and whether it is the default';

const properties: INodeProperties[] = [moduleQueryField, ...returnAllLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['customView'], operation: ['getAll'] } },
	properties,
);
