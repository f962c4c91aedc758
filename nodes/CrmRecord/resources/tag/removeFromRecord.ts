import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tagActionProperties, tagNamesQuery } from './shared';
import { crmRouting } from '../../../shared/transport';

/** RemoveTagsFromRecord — POST /crm/{v}/{module}/{recordId}/actions/remove_tags?tag_names=… */
export const operation: INodePropertyOptions = {
	name: 'Remove From Record',
	value: 'removeFromRecord',
	action: 'Remove tags from a record',
	description: 'Remove tags from one record',
	routing: crmRouting(
		{
			request: {
				method: 'POST',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/remove_tags',
			},
			send: { preSend: [tagNamesQuery] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns =
	'the result: its status, and the record id and its tags after the change (under details)';

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['removeFromRecord'] } },
	tagActionProperties('remove', true),
);
