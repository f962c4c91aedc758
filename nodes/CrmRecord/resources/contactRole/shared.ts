import type { INodeProperties } from 'n8n-workflow';

import { recordPicker } from '../../../shared/description/properties';
import type { IdListTarget } from '../shared';

/** Contact roles per create/update/delete request (docs/protocol.md §6). */
export const CONTACT_ROLES_PER_REQUEST = 100;

/** Update and Delete: PUT /crm/{v}/Contacts/roles and DELETE /crm/{v}/Contacts/roles?ids=…, by role ID. */
export const contactRoleList: IdListTarget = {
	idParameter: 'contactRoleId',
	label: 'Contact role ID',
	path: '/Contacts/roles',
	listKey: 'contact_roles',
	batchSize: CONTACT_ROLES_PER_REQUEST,
};

export const contactRoleIdField: INodeProperties = {
	displayName: 'Contact Role Name or ID',
	name: 'contactRoleId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getContactRoles' },
	default: '',
	required: true,
	description:
		'The contact role. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const dealIdField: INodeProperties = recordPicker({
	displayName: 'Deal',
	name: 'dealId',
	description: 'The deal: from the list, by ID, or by its address in the CRM',
	searchListMethod: 'searchDeals',
	placeholder: '4876876000000611200',
});

export const contactIdField: INodeProperties = recordPicker({
	displayName: 'Contact',
	name: 'contactId',
	description: 'The contact: from the list, by ID, or by its address in the CRM',
	searchListMethod: 'searchContacts',
	placeholder: '4876876000000611046',
});
