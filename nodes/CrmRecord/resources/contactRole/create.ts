import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { runBatched } from '../../../shared/transport';
import { CONTACT_ROLES_PER_REQUEST } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'Role name, unique in the organisation',
	},
	optionsCollection([
		{
			displayName: 'Sequence Number',
			name: 'sequence_number',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'Position of the role in lists',
		},
	]),
];

/** CreateContactRoles — POST /crm/{v}/Contacts/roles, up to 100 roles per request (custom operation) */
export const { operation, returns, description, execute } = writeOperation('create', {
	resource: 'contactRole',
	thing: 'contact role',
	description: 'Create contact roles',
	properties,
	async execute() {
		return await runBatched(this, {
			batchSize: CONTACT_ROLES_PER_REQUEST,
			build: (itemIndex) => {
				const name = String(getParameter(this, 'name', itemIndex) ?? '').trim();
				if (!name) throw new NodeOperationError(this.getNode(), 'Name is empty', { itemIndex });
				const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
				return { key: 'roles', payload: { name, ...options } };
			},
			request: (_key, roles) =>
				itemListRequest({ method: 'POST', path: '/Contacts/roles' }, 'contact_roles', roles),
		});
	},
});
