import type { INodeProperties } from 'n8n-workflow';

/** Module picker: the module list of the connected CRM (custom modules included), or an expression. */
export const moduleSelect: INodeProperties = {
	displayName: 'Module Name or ID',
	name: 'module',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getModules' },
	default: '',
	required: true,
	description:
		'API name of the module, e.g. Leads or Deals. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const recordIdField: INodeProperties = {
	displayName: 'Record ID',
	name: 'recordId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '4876876000000611001',
	description: 'Numeric ID of the record',
};

/** Return All / Limit pair; the node-level request runner pages with them. */
export function returnAllLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Field/value pairs of a record; values are typed from the module's field metadata when sent. */
export const recordFieldsUi: INodeProperties = {
	displayName: 'Fields',
	name: 'fieldsUi',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Field',
	options: [
		{
			displayName: 'Field',
			name: 'field',
			values: [
				{
					displayName: 'Field Name or ID',
					name: 'name',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['module'] },
					default: '',
					description:
						'Field API name. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description: 'Value of the field; numbers, booleans, dates and lookups are converted to the field type',
				},
			],
		},
	],
};
