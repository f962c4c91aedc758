import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactRoleIdField } from './shared';

/** GetContactRole — GET /crm/{v}/Contacts/roles/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a contact role',
	description: 'Retrieve one contact role (GetContactRole)',
	routing: { request: { method: 'GET', url: '=/Contacts/roles/{{ toPathSegment($parameter.contactRoleId) }}' } },
};

const properties: INodeProperties[] = [contactRoleIdField];

export const description = updateDisplayOptions({ show: { resource: ['contactRole'], operation: ['get'] } }, properties);
