import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetVariableGroups — GET /crm/{v}/settings/variable_groups */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many variable groups',
	description: 'List the variable groups of the organization',
	routing: { request: { method: 'GET', url: '/settings/variable_groups' } },
};

export const returns = 'one item per variable group, with its id, API name, name and description';

export const description: INodeProperties[] = [];

/** Key of the items in the response (docs/protocol.md §5.9). */
export const rootProperty = 'variable_groups';
