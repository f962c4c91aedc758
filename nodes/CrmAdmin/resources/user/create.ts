import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../../shared/description/collections';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { runBatched } from '../../../shared/transport';
import { userBody, userOptionalFields } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		required: true,
		description: 'Email address; the invitation goes there and it must not belong to another user',
	},
	{ displayName: 'Last Name', name: 'lastName', type: 'string', default: '', required: true },
	{
		displayName: 'Role Name or ID',
		name: 'role',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getRoles' },
		default: '',
		required: true,
		description:
			'Role of the user. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Profile Name or ID',
		name: 'profile',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProfiles' },
		default: '',
		required: true,
		description:
			'Profile of the user. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	additionalFieldsCollection(userOptionalFields),
];

/** CreateUser — POST /crm/{v}/users, one user per call as the contract asks of clients (custom operation) */
export const { operation, returns, description, execute } = writeOperation('create', {
	resource: 'user',
	thing: 'user',
	description: 'Invite a user to the CRM',
	properties,
	async execute() {
		return await runBatched(this, {
			// docs/protocol.md §5.6: CreateUser takes 1..100, but clients send one user per call
			batchSize: 1,
			build: (itemIndex) => {
				const required: IDataObject = {};
				for (const [param, key, label] of [
					['email', 'email', 'Email'],
					['lastName', 'last_name', 'Last Name'],
					['role', 'role', 'Role'],
					['profile', 'profile', 'Profile'],
				]) {
					const value = String(getParameter(this, param, itemIndex, '') ?? '').trim();
					if (!value)
						throw new NodeOperationError(this.getNode(), `"${label}" is required`, { itemIndex });
					required[key] = value;
				}
				const additional = getParameter(this, 'additionalFields', itemIndex, {}) as IDataObject;
				return { key: 'users', payload: userBody({ ...additional, ...required }) };
			},
			request: (_key, users) => itemListRequest({ method: 'POST', path: '/users' }, 'users', users),
		});
	},
});
