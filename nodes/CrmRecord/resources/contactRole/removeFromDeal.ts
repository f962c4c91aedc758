import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactIdField, dealIdField } from './shared';
import { crmRouting } from '../../../shared/transport';

/** RemoveContactRoleFromDeal — DELETE /crm/{v}/Deals/{dealId}/Contact_Roles/{contactId} */
export const operation: INodePropertyOptions = {
	name: 'Remove From Deal',
	value: 'removeFromDeal',
	action: 'Remove a contact from a deal',
	description: 'Remove a contact and its role from a deal',
	routing: crmRouting(
		{
			request: {
				method: 'DELETE',
				url: '=/Deals/{{ toPathSegment($parameter.dealId) }}/Contact_Roles/{{ toPathSegment($parameter.contactId) }}',
			},
		},
		{ rootProperty: 'data' },
	),
};

export const returns = 'the result: its status and the contact id (under details)';

const properties: INodeProperties[] = [dealIdField, contactIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['removeFromDeal'] } },
	properties,
);
