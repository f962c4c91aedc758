import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { runBatched } from '../../../shared/transport';
import { idParameter, putItemsRequest, requireSome } from '../shared';
import { userBody, userIdField, userOptionalFields, userUpdateOnlyFields } from './shared';
import { getParameter } from '../../../shared/parameters';

/**
 * UpdateUsers — PUT /crm/{v}/users (up to 100 users per request, items carry `id`);
 * UpdateUser — PUT /crm/{v}/users/{id} (a chunk of one). Custom operation.
 */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a user',
	description: 'Update users by ID',
};

export const returns = 'one item per updated user: its id and status';

const properties: INodeProperties[] = [
	userIdField,
	updateFieldsCollection(
		[...userUpdateOnlyFields, ...userOptionalFields].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		build: (itemIndex) => {
			const id = idParameter.call(this, 'userId', 'User ID', itemIndex);
			const fields = userBody(getParameter(this, 'updateFields', itemIndex, {}) as IDataObject);
			requireSome.call(this, fields, 'Update Fields', itemIndex);
			return { key: 'users', payload: { ...fields, id } };
		},
		request: (_key, users) => putItemsRequest('/users', 'users', users),
	});
}
