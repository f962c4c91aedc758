import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byKeyRouting, keySelectorField, noneWithKey } from '../shared';
import { crmRouting } from '../../../shared/transport';

/** The `getBy` key parameters of a variable group. */
const keys = { label: 'Variable Group', id: 'groupId', apiName: 'groupApiName' };

/**
 * GetVariableGroupById — GET /crm/{v}/settings/variable_groups/{id};
 * GetVariableGroupByAPIName — GET /crm/{v}/settings/variable_groups/{apiName}
 */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a variable group',
	description: 'Retrieve one variable group by ID or API name',
	routing: crmRouting(byKeyRouting('/settings/variable_groups', keys), {
		rootProperty: 'variable_groups',
		notFound: noneWithKey('variable group', keys),
	}),
};

export const returns =
	'the variable group with its id, API name, name and description (an error when none has the ID or API name)';

const properties: INodeProperties[] = [
	keySelectorField('getBy', 'Get'),
	{
		displayName: 'Variable Group Name or ID',
		name: 'groupId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getVariableGroups' },
		default: '',
		required: true,
		description:
			'The variable group. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { getBy: ['id'] } },
	},
	{
		displayName: 'Variable Group API Name',
		name: 'groupApiName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'General',
		displayOptions: { show: { getBy: ['apiName'] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['variableGroup'], operation: ['get'] } },
	properties,
);
