import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { shareDetails } from './shared';
import { crmRouting } from '../../../shared/transport';

/** GetSharedRecordDetails — GET /crm/{v}/{module}/{recordId}/actions/share */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get the sharing of a record',
	description: 'List the users a record is shared with',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/share',
			},
			output: { postReceive: [shareDetails] },
		},
		{ rootProperty: 'share' },
	),
};

export const returns =
	'one item per share: the user, permission and related-records flag (Manage view: one item with shareable users)';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	optionsCollection([
		{
			displayName: 'Shared To User ID',
			name: 'sharedTo',
			type: 'string',
			default: '',
			description: 'Only the sharing with this user',
			routing: {
				send: { type: 'query', property: 'sharedTo', value: '={{ $value || undefined }}' },
			},
		},
		{
			displayName: 'View',
			name: 'view',
			type: 'options',
			options: [
				{ name: 'Summary', value: 'summary', description: 'The users the record is shared with' },
				{
					name: 'Manage',
					value: 'manage',
					description:
						'One item with the shares (shared_with) and the users the record can be shared with (shareable_user)',
				},
			],
			default: 'summary',
			routing: { send: { type: 'query', property: 'view' } },
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['share'], operation: ['get'] } },
	properties,
);
