import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tagActionProperties, tagNamesQuery } from './shared';

/** RemoveTagsFromRecord — POST /crm/{v}/{module}/{recordId}/actions/remove_tags?tag_names=… */
export const operation: INodePropertyOptions = {
	name: 'Remove From Record',
	value: 'removeFromRecord',
	action: 'Remove tags from a record',
	description: 'Remove tags from one record',
	routing: {
		request: {
			method: 'POST',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/remove_tags',
		},
		send: { preSend: [tagNamesQuery] },
	},
};

export const returns =
	'the result: its status, and the record id and its tags after the change (under details)';

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['removeFromRecord'] } },
	tagActionProperties('remove', true),
);

/** Key of the items in the response (docs/protocol.md §5.5). */
export const rootProperty = 'data';
