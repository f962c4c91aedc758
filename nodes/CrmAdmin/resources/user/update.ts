import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { runBatched } from '../../../shared/transport';
import { idParameter, putItemsRequest, requireSome } from '../shared';
import { userBody, userIdField, userOptionalFields, userUpdateOnlyFields } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	userIdField,
	updateFieldsCollection(
		[...userUpdateOnlyFields, ...userOptionalFields].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	),
];

/**
 * UpdateUsers — PUT /crm/{v}/users (up to 100 users per request, items carry `id`);
 * UpdateUser — PUT /crm/{v}/users/{id} (a chunk of one). Custom operation.
 */
export const { operation, returns, description, execute } = writeOperation('update', {
	resource: 'user',
	thing: 'user',
	description: 'Update users by ID',
	properties,
	async execute() {
		return await runBatched(this, {
			build: (itemIndex) => {
				const id = idParameter.call(this, 'userId', 'User ID', itemIndex);
				const fields = userBody(getParameter(this, 'updateFields', itemIndex, {}) as IDataObject);
				requireSome.call(this, fields, 'Update Fields', itemIndex);
				return { key: 'users', payload: { ...fields, id } };
			},
			request: (_key, users) => putItemsRequest('/users', 'users', users),
		});
	},
});
