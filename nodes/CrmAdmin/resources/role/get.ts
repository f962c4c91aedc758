import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** A missing ID: "No role with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('role', 'roleId');

/** GetRole — GET /crm/{v}/settings/roles/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a role',
	description: 'Retrieve one role by ID',
	routing: crmRouting(byIdRouting('GET', '/settings/roles', 'roleId', 'Role ID'), {
		rootProperty: 'roles',
		notFound,
	}),
};

export const returns =
	'the role with its id, name, description and the role it reports to (an error when no role has the ID)';

const properties: INodeProperties[] = [
	{
		displayName: 'Role Name or ID',
		name: 'roleId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getRoles' },
		default: '',
		required: true,
		description:
			'The role to retrieve. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['role'], operation: ['get'] } },
	properties,
);
