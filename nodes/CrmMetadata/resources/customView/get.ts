import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idOptions, moduleQueryField } from '../shared';
import { idPathSegment, requireDigits } from '../../../shared/records/validation';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** GetCustomView — GET /crm/{v}/settings/custom_views/{id}?module= */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a custom view',
	description: 'Retrieve one custom view with its criteria and columns',
	routing: crmRouting(
		{
			request: { method: 'GET', url: `=/settings/custom_views/${idPathSegment('customViewId')}` },
			send: { preSend: [requireDigits('customViewId', 'Custom View ID')] },
		},
		{ rootProperty: 'custom_views', notFound: noneWithId('custom view', 'customViewId') },
	),
};

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
