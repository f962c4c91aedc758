import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactRoleIdField } from './shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** GetContactRole — GET /crm/{v}/Contacts/roles/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a contact role',
	description: 'Retrieve one contact role',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/Contacts/roles/{{ toPathSegment($parameter.contactRoleId) }}',
			},
		},
		{ rootProperty: 'contact_roles', notFound: noneWithId('contact role', 'contactRoleId') },
	),
};

export const returns =
	'the contact role with its id, name and sequence number (an error when no role has the ID)';

const properties: INodeProperties[] = [contactRoleIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['get'] } },
	properties,
);
