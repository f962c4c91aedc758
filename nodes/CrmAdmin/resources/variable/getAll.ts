import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { groupField } from './shared';
import { crmRouting } from '../../../shared/transport';

/** GetVariables — GET /crm/{v}/settings/variables?group=… */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many variables',
	description: 'List the variables of a variable group',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/settings/variables' } },
		{ rootProperty: 'variables' },
	),
};

export const returns =
	'one item per variable of the group, with its id, API name, name, type and value';

const properties: INodeProperties[] = [
	{ ...groupField, routing: { send: { type: 'query', property: 'group' } } },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['variable'], operation: ['getAll'] } },
	properties,
);
