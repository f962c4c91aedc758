import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { idOptions, moduleQueryField } from '../shared';

/** GetCustomView — GET /crm/{v}/settings/custom_views/{id}?module= */
export const operation = getByIdOption({
	thing: 'custom view',
	path: '/settings/custom_views',
	idParameter: 'customViewId',
	rootProperty: 'custom_views',
	description: 'Retrieve one custom view with its criteria and columns',
});

export const returns =
	'the custom view with its id, name, criteria and columns (an error when no view has the ID)';

const properties: INodeProperties[] = [
	moduleQueryField,
	idOptions(
		'Custom View Name or ID',
		'customViewId',
		'getCustomViews',
		['module'],
		'Custom view to retrieve',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customView'], operation: ['get'] } },
	properties,
);
