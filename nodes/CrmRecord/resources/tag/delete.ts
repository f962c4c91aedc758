import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { tagIdField } from './shared';
import { crmRouting } from '../../../shared/transport';

/** DeleteTag — DELETE /crm/{v}/settings/tags/{id} */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a tag',
	description: 'Delete a tag; it is removed from every record',
	routing: crmRouting(
		{
			request: {
				method: 'DELETE',
				url: '=/settings/tags/{{ toPathSegment($parameter.tagId) }}',
			},
		},
		{ rootProperty: 'tags' },
	),
};

export const returns = 'the result: its status and the deleted tag id (under details)';

// the module only feeds the tag list
const properties: INodeProperties[] = [moduleSelect, tagIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['delete'] } },
	properties,
);
