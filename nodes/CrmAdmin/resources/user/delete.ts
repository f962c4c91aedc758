import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { writeResults } from '../shared';
import { byIdRouting } from '../../../shared/description/getById';
import { userIdField } from './shared';
import { crmRouting } from '../../../shared/transport';

/** DeleteUser — DELETE /crm/{v}/users/{id} */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a user',
	description: 'Delete a user; it stays listed under Deleted Users',
	routing: crmRouting({
		...byIdRouting('DELETE', '/users', 'userId', 'User ID'),
		output: { postReceive: [writeResults] },
	}),
};

export const returns = 'the id of the deleted user and the status';

const properties: INodeProperties[] = [userIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['delete'] } },
	properties,
);
