import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byKeyRouting, noneWithKey } from '../shared';
import { groupField, variableKeyFields } from './shared';
import { crmRouting } from '../../../shared/transport';

/** The `getBy` key parameters of a variable. */
const keys = { label: 'Variable', id: 'variableId', apiName: 'variableApiName' };

/**
 * GetVariableByID — GET /crm/{v}/settings/variables/{id}?group=…;
 * GetVariableForAPIName — GET /crm/{v}/settings/variables/{apiName}?group=…
 */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a variable',
	description: 'Retrieve one variable by ID or API name',
	routing: crmRouting(byKeyRouting('/settings/variables', keys), {
		rootProperty: 'variables',
		notFound: noneWithKey('variable', keys),
	}),
};

export const returns =
	'the variable with its id, API name, name, type, value and group (an error when none has the ID or API name)';

const properties: INodeProperties[] = [
	{ ...groupField, routing: { send: { type: 'query', property: 'group' } } },
	...variableKeyFields('getBy', 'Get'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['variable'], operation: ['get'] } },
	properties,
);
