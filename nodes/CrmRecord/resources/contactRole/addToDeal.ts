import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactIdField, contactRoleIdField, dealIdField } from './shared';
import { requireDigits } from '../../../shared/records/validation';
import { crmRouting } from '../../../shared/transport';

/** AddContactRoleToDeal — PUT /crm/{v}/Deals/{dealId}/Contact_Roles/{contactId}, body `data` [=1] {Contact_Role} */
export const operation: INodePropertyOptions = {
	name: 'Add to Deal',
	value: 'addToDeal',
	action: 'Set the role of a contact on a deal',
	description: 'Add a contact to a deal with a role, or change its role',
	routing: crmRouting(
		{
			send: { preSend: [requireDigits('dealId', 'Deal ID')] },
			request: {
				method: 'PUT',
				url: '=/Deals/{{ toPathSegment($parameter.dealId) }}/Contact_Roles/{{ toPathSegment($parameter.contactId) }}',
			},
		},
		{ rootProperty: 'data' },
	),
};

export const returns = 'the result: its status and the contact id (under details)';

const properties: INodeProperties[] = [
	dealIdField,
	contactIdField,
	{
		...contactRoleIdField,
		routing: {
			send: {
				type: 'body',
				property: 'data',
				value: '={{ [ { Contact_Role: String($value) } ] }}',
			},
		},
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['addToDeal'] } },
	properties,
);
