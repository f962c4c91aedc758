import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { unwrapShare } from './shared';
import { crmRouting } from '../../../shared/transport';

/** RevokeSharedRecord — DELETE /crm/{v}/{module}/{recordId}/actions/share */
export const operation: INodePropertyOptions = {
	name: 'Revoke',
	value: 'revoke',
	action: 'Revoke the sharing of a record',
	description: 'Stop sharing a record with every user',
	routing: crmRouting(
		{
			request: {
				method: 'DELETE',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/share',
			},
			output: { postReceive: [unwrapShare] },
		},
		{ rootProperty: 'share' },
	),
};

export const returns = 'the result: its status and message';

const properties: INodeProperties[] = [moduleSelect, recordIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['share'], operation: ['revoke'] } },
	properties,
);
