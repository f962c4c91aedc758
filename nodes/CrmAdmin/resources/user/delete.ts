import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireDigits } from '../../../shared/validation';
import { writeResults } from '../shared';
import { userIdField } from './shared';

/** DeleteUser — DELETE /crm/{v}/users/{id} */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a user',
	description: 'Delete a user; it stays listed under Deleted Users',
	routing: {
		request: { method: 'DELETE', url: '=/users/{{ toPathSegment(String($parameter.userId).trim()) }}' },
		send: { preSend: [requireDigits('userId', 'User ID')] },
		output: { postReceive: [writeResults] },
	},
};

const properties: INodeProperties[] = [userIdField];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['delete'] } }, properties);
