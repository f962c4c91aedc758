import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** GetContactRoles — GET /crm/{v}/Contacts/roles */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many contact roles',
	description: 'List the contact roles of the organisation',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/Contacts/roles' } },
		{ rootProperty: 'contact_roles' },
	),
};

export const returns = 'one item per contact role, with its id, name and sequence number';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['getAll'] } },
	properties,
);
