import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** GetVariableGroups — GET /crm/{v}/settings/variable_groups */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many variable groups',
	description: 'List the variable groups of the organization',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/settings/variable_groups' } },
		{ rootProperty: 'variable_groups' },
	),
};

export const returns = 'one item per variable group, with its id, API name, name and description';

export const description: INodeProperties[] = [];
