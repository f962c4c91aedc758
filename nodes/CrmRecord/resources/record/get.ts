import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/descriptions';

/** GetRecord — GET /crm/{v}/{module}/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a record',
	description: 'Retrieve one record by ID (GetRecord)',
	routing: {
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}',
		},
	},
};

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
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
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['get'] } }, properties);
