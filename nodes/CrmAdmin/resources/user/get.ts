import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireDigits } from '../../../shared/validation';
import { userIdField } from './fields';

/** GetUser — GET /crm/{v}/users/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a user',
	description: 'Retrieve one user by ID (GetUser)',
	routing: {
		request: { method: 'GET', url: '=/users/{{ toPathSegment(String($parameter.userId).trim()) }}' },
		send: { preSend: [requireDigits('userId', 'User ID')] },
	},
};

const properties: INodeProperties[] = [userIdField];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['get'] } }, properties);
