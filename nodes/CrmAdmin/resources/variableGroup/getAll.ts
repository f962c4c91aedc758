import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetVariableGroups — GET /crm/{v}/settings/variable_groups */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many variable groups',
	description: 'List the variable groups of the organization (GetVariableGroups)',
	routing: { request: { method: 'GET', url: '/settings/variable_groups' } },
};

export const description: INodeProperties[] = [];
