import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idOptions, moduleQueryField } from '../shared';
import { idPathSegment, requireDigits } from '../../../shared/records/validation';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** GetLayout — GET /crm/{v}/settings/layouts/{id}?module= */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a layout',
	description: 'Retrieve one layout of a module by ID',
	routing: crmRouting(
		{
			request: { method: 'GET', url: `=/settings/layouts/${idPathSegment('layoutId')}` },
			send: { preSend: [requireDigits('layoutId', 'Layout ID')] },
		},
		{ rootProperty: 'layouts', notFound: noneWithId('layout', 'layoutId') },
	),
};

export const returns =
	'the layout with its id, name and sections with their fields (an error when no layout has the ID)';

const properties: INodeProperties[] = [
	moduleQueryField,
	idOptions('Layout Name or ID', 'layoutId', 'getLayouts', ['module'], 'Layout to retrieve'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['layout'], operation: ['get'] } },
	properties,
);
