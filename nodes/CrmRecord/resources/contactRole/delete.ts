import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { deleteByIds } from '../shared';
import { contactRoleIdField, contactRoleList } from './shared';

/** DeleteContactRoles — DELETE /crm/{v}/Contacts/roles?ids=…, up to 100 IDs per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a contact role',
	description: 'Delete contact roles',
};

export const returns = 'one item per deleted contact role: its id and status';

const properties: INodeProperties[] = [contactRoleIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await deleteByIds.call(this, contactRoleList);
}
