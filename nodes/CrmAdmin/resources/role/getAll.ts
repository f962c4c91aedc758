import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** GetRoles — GET /crm/{v}/settings/roles */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many roles',
	description: 'List the roles of the organization with the role each reports to',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/settings/roles' } },
		{ rootProperty: 'roles' },
	),
};

export const returns =
	'one item per role, with its id, name, description and the role it reports to';

export const description: INodeProperties[] = [];
