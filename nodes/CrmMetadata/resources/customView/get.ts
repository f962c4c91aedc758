import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/descriptions';
import { idOptions } from '../common';
import { requireDigits } from '../../../shared/validation';

/** GetCustomView — GET /crm/{v}/settings/custom_views/{id}?module= */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a custom view',
	description: 'Retrieve one custom view with its criteria and columns (GetCustomView)',
	routing: { request: { method: 'GET', url: '=/settings/custom_views/{{ toPathSegment($parameter.customViewId) }}' }, send: { preSend: [requireDigits('customViewId', 'Custom View ID')] } },
};

const properties: INodeProperties[] = [
	{ ...moduleSelect, routing: { send: { type: 'query', property: 'module' } } },
	idOptions('Custom View Name or ID', 'customViewId', 'getCustomViews', ['module'], 'Custom view to retrieve'),
];

export const description = updateDisplayOptions({ show: { resource: ['customView'], operation: ['get'] } }, properties);
