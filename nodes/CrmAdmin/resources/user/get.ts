import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { userIdField } from './shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** A missing ID: "No user with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('user', 'userId');

/** GetUser — GET /crm/{v}/users/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a user',
	description: 'Retrieve one user by ID',
	routing: crmRouting(byIdRouting('GET', '/users', 'userId', 'User ID'), {
		rootProperty: 'users',
		notFound,
	}),
};

export const returns =
	'the user with its id, name, email, role, profile and status (an error when no user has the ID)';

const properties: INodeProperties[] = [userIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['get'] } },
	properties,
);
