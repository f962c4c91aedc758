import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { updateByIds } from '../shared';
import { contactRoleIdField, contactRoleList } from './shared';

/** UpdateContactRoles — PUT /crm/{v}/Contacts/roles, up to 100 roles per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a contact role',
	description: 'Rename or reorder contact roles',
};

export const returns = 'one item per updated contact role: its id and status';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await updateByIds.call(this, contactRoleList);
}
