import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsField, sendAsQuery } from '../../../shared/description/collections';
import { returnAllLimit } from '../../../shared/description/properties';
import { crmRouting } from '../../../shared/transport';

/** GetUsers — GET /crm/{v}/users?type=…, paged by its request runner (crmRouting) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many users',
	description: 'List users of a given type',
	routing: crmRouting({ request: { method: 'GET', url: '/users' } }, { rootProperty: 'users' }),
};

export const returns = 'one item per user, with its id, name, email, role, profile and status';

const properties: INodeProperties[] = [
	optionsField(
		'Type',
		'type',
		[
			{ name: 'Active Confirmed Admins', value: 'ActiveConfirmedAdmins' },
			{ name: 'Active Confirmed Users', value: 'ActiveConfirmedUsers' },
			{ name: 'Active Users', value: 'ActiveUsers' },
			{ name: 'Admin Users', value: 'AdminUsers' },
			{ name: 'All Users', value: 'AllUsers' },
			{ name: 'Confirmed Users', value: 'ConfirmedUsers' },
			{
				name: 'Current User',
				value: 'CurrentUser',
				description: 'The user the credential acts as',
			},
			{ name: 'Deactivated Users', value: 'DeactiveUsers' },
			{ name: 'Deleted Users', value: 'DeletedUsers' },
			{ name: 'Not Confirmed Users', value: 'NotConfirmedUsers' },
		],
		'AllUsers',
		{ description: 'Which users to list', ...sendAsQuery('type') },
	),
	...returnAllLimit(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['getAll'] } },
	properties,
);
