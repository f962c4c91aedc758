import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByKeyOption } from '../shared';
import { groupField, variableKeyFields } from './shared';

/**
 * GetVariableByID — GET /crm/{v}/settings/variables/{id}?group=…;
 * GetVariableForAPIName — GET /crm/{v}/settings/variables/{apiName}?group=…
 */
export const operation = getByKeyOption({
	thing: 'variable',
	path: '/settings/variables',
	keys: { label: 'Variable', id: 'variableId', apiName: 'variableApiName' },
	rootProperty: 'variables',
});

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
