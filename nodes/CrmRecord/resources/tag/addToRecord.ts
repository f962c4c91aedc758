import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tagActionProperties, tagNamesQuery } from './shared';
import { crmRouting } from '../../../shared/transport';

/** AddTagsToRecord — POST /crm/{v}/{module}/{recordId}/actions/add_tags?tag_names=…&over_write=… */
export const operation: INodePropertyOptions = {
	name: 'Add to Record',
	value: 'addToRecord',
	action: 'Add tags to a record',
	description: 'Add tags to one record, creating unknown tags',
	routing: crmRouting(
		{
			request: {
				method: 'POST',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/add_tags',
			},
			send: { preSend: [tagNamesQuery] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns =
	'the result: its status, and the record id and its tags after the change (under details)';

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['addToRecord'] } },
	tagActionProperties('add', true),
);
