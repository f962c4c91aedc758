import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { shareBody, shareUsersField } from './shared';
import { crmRouting } from '../../../shared/transport';

/** ShareRecord — POST /crm/{v}/{module}/{recordId}/actions/share, body `share` [1..10] */
export const operation: INodePropertyOptions = {
	name: 'Share',
	value: 'share',
	action: 'Share a record with users',
	description: 'Share a record with up to 10 users',
	routing: crmRouting(
		{
			request: {
				method: 'POST',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/share',
			},
			send: { preSend: [shareBody] },
		},
		{ rootProperty: 'share' },
	),
};

export const returns = 'one item per user: its status and the user id (under details)';

const properties: INodeProperties[] = [moduleSelect, recordIdField, shareUsersField];

export const description = updateDisplayOptions(
	{ show: { resource: ['share'], operation: ['share'] } },
	properties,
);
