import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { crmApiRequest, runBatched } from '../../../shared/transport';
import { checkDigits } from '../../../shared/validation';
import { CONTACT_ROLES_PER_REQUEST, contactRoleIdField } from './shared';

/** UpdateContactRoles — PUT /crm/{v}/Contacts/roles, up to 100 roles per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a contact role',
	description: 'Rename or reorder contact roles',
};

const properties: INodeProperties[] = [
	contactRoleIdField,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{ displayName: 'Sequence Number', name: 'sequence_number', type: 'number', typeOptions: { minValue: 1 }, default: 1 },
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['contactRole'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		batchSize: CONTACT_ROLES_PER_REQUEST,
		build: (itemIndex) => {
			const id = String(this.getNodeParameter('contactRoleId', itemIndex) ?? '').trim();
			checkDigits(this.getNode(), id, 'Contact role ID', { itemIndex });
			const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
			if (Object.keys(fields).length === 0) {
				throw new NodeOperationError(this.getNode(), 'Nothing to update: add a field under "Update Fields"', { itemIndex });
			}
			return { key: 'roles', payload: { id, ...fields } };
		},
		send: async (_key, roles) => {
			const body = await crmApiRequest.call(this, { method: 'PUT', path: '/Contacts/roles', body: { contact_roles: roles }, itemListKey: 'contact_roles' });
			return (body.contact_roles ?? []) as IDataObject[];
		},
	});
}
