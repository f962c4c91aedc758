import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByKeyOption, keyFields } from '../shared';

/**
 * GetVariableGroupById — GET /crm/{v}/settings/variable_groups/{id};
 * GetVariableGroupByAPIName — GET /crm/{v}/settings/variable_groups/{apiName}
 */
export const operation = getByKeyOption({
	thing: 'variable group',
	path: '/settings/variable_groups',
	keys: { label: 'Variable Group', id: 'groupId', apiName: 'groupApiName' },
	rootProperty: 'variable_groups',
});

export const returns =
	'the variable group with its id, API name, name and description (an error when none has the ID or API name)';

const properties: INodeProperties[] = keyFields(
	'getBy',
	'Get',
	{
		displayName: 'Variable Group Name or ID',
		name: 'groupId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getVariableGroups' },
		default: '',
		required: true,
		description:
			'The variable group. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{ label: 'Variable Group', name: 'groupApiName', placeholder: 'General' },
);

export const description = updateDisplayOptions(
	{ show: { resource: ['variableGroup'], operation: ['get'] } },
	properties,
);
