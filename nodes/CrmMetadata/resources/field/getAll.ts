import { optionsField } from '../../../shared/description/collections';
import { moduleQueryField, settingsListOperation } from '../shared';

/** GetFields — GET /crm/{v}/settings/fields?module=&type= */
export const { operation, returns, description } = settingsListOperation({
	resource: 'field',
	things: 'fields',
	url: '/settings/fields',
	rootProperty: 'fields',
	description: 'List the fields of a module',
	returns:
		'one item per field of the module, with its id, API name, label, data type and picklist values',
	properties: [
		moduleQueryField,
		optionsField(
			'Type',
			'type',
			[
				{ name: 'All Fields', value: 'all', description: 'Every field of the module' },
				{ name: 'Unused Fields', value: 'unused', description: 'Fields not used in any layout' },
			],
			'all',
			{
				routing: {
					send: {
						type: 'query',
						property: 'type',
						value: '={{ $value === "all" ? undefined : $value }}',
					},
				},
			},
		),
	],
});
