import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	optionsField,
	sendAsQuery,
	sortOrderOption,
} from '../../../shared/description/collections';
import { moduleSelect, returnAllLimit } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { fieldsOption, modifiedSinceOption } from './get';
import { readOptions } from './hooks';
import { crmRouting } from '../../../shared/transport';

/** GetRecords — GET /crm/{v}/{module}, paged by its request runner (crmRouting) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many records',
	description: 'List the records of a module',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/{{ toPathSegment($parameter.module) }}',
			},
			send: { preSend: [readOptions] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns = 'one item per record, with its id and field values';

export const triState = (name: string, displayName: string, what: string): INodeProperties =>
	optionsField(displayName, name, { Both: 'both', No: 'false', Yes: 'true' }, 'both', {
		description: `Whether to return ${what} records (${name})`,
		...sendAsQuery(name),
	});

const properties: INodeProperties[] = [
	moduleSelect,
	...returnAllLimit(),
	optionsCollection([
		triState('approved', 'Approved', 'approved'),
		triState('converted', 'Converted', 'converted'),
		{
			displayName: 'Custom View ID',
			name: 'cvid',
			type: 'string',
			default: '',
			description: 'Only the records of this custom view (cvid)',
			routing: { send: { type: 'query', property: 'cvid', value: '={{ $value || undefined }}' } },
		},
		fieldsOption,
		{
			displayName: 'Include Child Territories',
			name: 'include_child',
			type: 'boolean',
			default: false,
			description:
				'Whether records of the territories below the given one are included (include_child)',
			routing: {
				send: {
					type: 'query',
					property: 'include_child',
					value: '={{ $value ? "true" : "false" }}',
				},
			},
		},
		modifiedSinceOption,
		{
			displayName: 'Record IDs',
			name: 'ids',
			type: 'string',
			default: '',
			placeholder: '4876876000000611001,4876876000000611002',
			description: 'Only the records with these IDs: up to 100, comma-separated',
		},
		{
			displayName: 'Sort By Name or ID',
			name: 'sort_by',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getSortableFields', loadOptionsDependsOn: ['module'] },
			default: '',
			description:
				'Field to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			routing: { send: { type: 'query', property: 'sort_by' } },
		},
		sortOrderOption(),
		{
			displayName: 'Territory ID',
			name: 'territory_id',
			type: 'string',
			default: '',
			description: 'Only records assigned to this territory (territory_id)',
			routing: {
				send: { type: 'query', property: 'territory_id', value: '={{ $value || undefined }}' },
			},
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['getAll'] } },
	properties,
);
