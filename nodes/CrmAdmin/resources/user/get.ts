import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { userIdField } from './shared';
import { noneWithId } from '../../../shared/transport';

/** GetUser — GET /crm/{v}/users/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a user',
	description: 'Retrieve one user by ID',
	routing: byIdRouting('GET', '/users', 'userId', 'User ID'),
};

export const returns =
	'the user with its id, name, email, role, profile and status (an error when no user has the ID)';

const properties: INodeProperties[] = [userIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['get'] } },
	properties,
);

/** Key of the items in the response (docs/protocol.md §5.6). */
export const rootProperty = 'users';

/** A missing ID: "No user with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('user', 'userId');
