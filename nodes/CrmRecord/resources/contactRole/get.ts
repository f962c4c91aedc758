import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { contactRoleIdField } from './shared';

/** GetContactRole — GET /crm/{v}/Contacts/roles/{id} */
export const operation = getByIdOption({
	thing: 'contact role',
	path: '/Contacts/roles',
	idParameter: 'contactRoleId',
	rootProperty: 'contact_roles',
	description: 'Retrieve one contact role',
	unchecked: true,
});

export const returns =
	'the contact role with its id, name and sequence number (an error when no role has the ID)';

const properties: INodeProperties[] = [contactRoleIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['get'] } },
	properties,
);
