import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmApiRequest, runBatched } from '../../../shared/transport';
import { checkDigits } from '../../../shared/validation';
import { CONTACT_ROLES_PER_REQUEST, contactRoleIdField } from './shared';

/** DeleteContactRoles — DELETE /crm/{v}/Contacts/roles?ids=…, up to 100 IDs per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a contact role',
	description: 'Delete contact roles',
};

const properties: INodeProperties[] = [contactRoleIdField];

export const description = updateDisplayOptions({ show: { resource: ['contactRole'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		batchSize: CONTACT_ROLES_PER_REQUEST,
		build: (itemIndex) => {
			const id = String(this.getNodeParameter('contactRoleId', itemIndex) ?? '').trim();
			checkDigits(this.getNode(), id, 'Contact role ID', { itemIndex });
			return { key: 'roles', payload: { id } };
		},
		send: async (_key, payloads) => {
			const body = await crmApiRequest.call(this, {
				method: 'DELETE',
				path: '/Contacts/roles',
				qs: { ids: payloads.map((p) => p.id).join(',') },
				itemListKey: 'contact_roles',
			});
			return (body.contact_roles ?? []) as IDataObject[];
		},
	});
}
