import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, returnAllLimit } from '../../../shared/descriptions';

/** GetRecords — GET /crm/{v}/{module}, paged by the node's request runner */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many records',
	description: 'List the records of a module (GetRecords)',
	routing: {
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}',
		},
	},
};

const properties: INodeProperties[] = [
	moduleSelect,
	...returnAllLimit(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Field Names or IDs',
				name: 'fields',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['module'] },
				default: [],
				description:
					'Fields to return (all when empty). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				routing: { send: { type: 'query', property: 'fields', value: '={{ $value.join(",") || undefined }}' } },
			},
			{
				displayName: 'Sort By Name or ID',
				name: 'sort_by',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['module'] },
				default: '',
				description:
					'Field to sort by. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				routing: { send: { type: 'query', property: 'sort_by' } },
			},
			{
				displayName: 'Sort Order',
				name: 'sort_order',
				type: 'options',
				options: [
					{ name: 'Ascending', value: 'asc' },
					{ name: 'Descending', value: 'desc' },
				],
				default: 'desc',
				routing: { send: { type: 'query', property: 'sort_order' } },
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['getAll'] } }, properties);
