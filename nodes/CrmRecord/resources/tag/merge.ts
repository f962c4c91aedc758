import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { tagIdField } from './shared';
import { crmRouting } from '../../../shared/transport';

/** MergeTags — POST /crm/{v}/settings/tags/{id}/actions/merge, body `tags` [=1] {conflict_id} */
export const operation: INodePropertyOptions = {
	name: 'Merge',
	value: 'merge',
	action: 'Merge two tags',
	description: 'Merge a tag into another: the tag is removed and its records get the other tag',
	routing: crmRouting(
		{
			request: {
				method: 'POST',
				url: '=/settings/tags/{{ toPathSegment($parameter.tagId) }}/actions/merge',
			},
		},
		{ rootProperty: 'tags' },
	),
};

export const returns = 'the result: its status and the id of the remaining tag (under details)';

const properties: INodeProperties[] = [
	moduleSelect,
	{
		...tagIdField,
		displayName: 'Tag to Merge Name or ID',
		description:
			'The tag that is removed. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		...tagIdField,
		displayName: 'Merge Into Tag Name or ID',
		name: 'conflictId',
		description:
			'The tag that remains. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		routing: {
			send: { type: 'body', property: 'tags', value: '={{ [ { conflict_id: String($value) } ] }}' },
		},
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['merge'] } },
	properties,
);
