import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleQueryField, settingsListOption } from '../shared';

/** GetFields — GET /crm/{v}/settings/fields?module=&type= */
export const operation = settingsListOption({
	things: 'fields',
	url: '/settings/fields',
	rootProperty: 'fields',
	description: 'List the fields of a module',
});

export const returns =
	'one item per field of the module, with its id, API name, label, data type and picklist values';

const properties: INodeProperties[] = [
	moduleQueryField,
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: [
			{ name: 'All Fields', value: 'all', description: 'Every field of the module' },
			{ name: 'Unused Fields', value: 'unused', description: 'Fields not used in any layout' },
		],
		default: 'all',
		routing: {
			send: {
				type: 'query',
				property: 'type',
				value: '={{ $value === "all" ? undefined : $value }}',
			},
		},
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['field'], operation: ['getAll'] } },
	properties,
);
