import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { userIdField } from './shared';

/** GetUser — GET /crm/{v}/users/{id} */
export const operation = getByIdOption({
	thing: 'user',
	path: '/users',
	idParameter: 'userId',
	rootProperty: 'users',
	description: 'Retrieve one user by ID',
});

export const returns =
	'the user with its id, name, email, role, profile and status (an error when no user has the ID)';

const properties: INodeProperties[] = [userIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['get'] } },
	properties,
);
