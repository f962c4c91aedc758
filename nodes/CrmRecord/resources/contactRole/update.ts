import type { INodeProperties } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { updateByIds } from '../shared';
import { contactRoleIdField, contactRoleList } from './shared';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	contactRoleIdField,
	updateFieldsCollection([
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		{
			displayName: 'Sequence Number',
			name: 'sequence_number',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
		},
	]),
];

/** UpdateContactRoles — PUT /crm/{v}/Contacts/roles, up to 100 roles per request (custom operation) */
export const { operation, returns, description, execute } = writeOperation('update', {
	resource: 'contactRole',
	thing: 'contact role',
	description: 'Rename or reorder contact roles',
	properties,
	async execute() {
		return await updateByIds.call(this, contactRoleList);
	},
});
