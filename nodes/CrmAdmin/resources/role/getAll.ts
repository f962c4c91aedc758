import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetRoles — GET /crm/{v}/settings/roles */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many roles',
	description: 'List the roles of the organization with the role each reports to',
	routing: { request: { method: 'GET', url: '/settings/roles' } },
};

export const returns =
	'one item per role, with its id, name, description and the role it reports to';

export const description: INodeProperties[] = [];

/** Key of the items in the response (docs/protocol.md §5.6). */
export const rootProperty = 'roles';
