import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';

/** GetRole — GET /crm/{v}/settings/roles/{id} */
export const operation = getByIdOption({
	thing: 'role',
	path: '/settings/roles',
	idParameter: 'roleId',
	rootProperty: 'roles',
	description: 'Retrieve one role by ID',
});

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
