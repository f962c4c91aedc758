import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { crmRouting } from '../../../shared/transport';

/** GetTags — GET /crm/{v}/settings/tags?module=… */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many tags',
	description: 'List the tags of a module',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '/settings/tags',
				qs: { module: '={{ $parameter.module }}' },
			},
		},
		{ rootProperty: 'tags' },
	),
};

export const returns = 'one item per tag of the module, with its id, name and colour';

const properties: INodeProperties[] = [
	moduleSelect,
	{
		displayName: 'Only My Tags',
		name: 'myTags',
		type: 'boolean',
		default: false,
		description: 'Whether to list only the tags created by the user of the credential',
		routing: {
			send: { type: 'query', property: 'my_tags', value: '={{ $value ? "true" : undefined }}' },
		},
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getAll'] } },
	properties,
);
