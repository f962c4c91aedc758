import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { runBatched } from '../../../shared/transport';
import { checkApiName, idParameter, putItemsRequest, requireSome } from '../shared';
import { VARIABLE_TYPES, optionalKeys, variableValue, variableKeyFields } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	...variableKeyFields('updateBy', 'Update'),
	updateFieldsCollection([
		{ displayName: 'Description', name: 'description', type: 'string', default: '' },
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: VARIABLE_TYPES,
			default: 'text',
			description: 'New data type; the value must fit it',
		},
		{
			displayName: 'Value',
			name: 'value',
			type: 'string',
			default: '',
			description:
				'New value; converted to the Type given here, else sent as text for the CRM to read by the variable type',
		},
	]),
];

/**
 * UpdateVariables — PUT /crm/{v}/settings/variables (up to 100 per request, items carry `id` or `api_name`);
 * UpdateVariableById — PUT /crm/{v}/settings/variables/{id}, UpdateVariableByAPIName — PUT …/{apiName} (a chunk of one).
 */
export const { operation, returns, description, execute } = writeOperation('update', {
	resource: 'variable',
	thing: 'variable',
	description: 'Update variables by ID or API name',
	properties,
	async execute() {
		return await runBatched(this, {
			build: (itemIndex) => {
				const by = getParameter(this, 'updateBy', itemIndex, 'id') as string;
				let key: IDataObject;
				if (by === 'id')
					key = { id: idParameter.call(this, 'variableId', 'Variable ID', itemIndex) };
				else {
					const apiName = String(getParameter(this, 'variableApiName', itemIndex) ?? '').trim();
					key = { api_name: checkApiName(this.getNode(), apiName, 'Variable API Name', itemIndex) };
				}
				const values = getParameter(this, 'updateFields', itemIndex, {}) as IDataObject;
				const fields: IDataObject = optionalKeys(values);
				if (typeof values.name === 'string' && values.name.trim() !== '')
					fields.name = values.name.trim();
				if (values.type) fields.type = values.type;
				if (values.value !== undefined) {
					fields.value = (
						values.type
							? variableValue.call(this, String(values.type), values.value, itemIndex)
							: values.value === ''
								? null
								: values.value
					) as IDataObject[string];
				}
				requireSome.call(this, fields, 'Update Fields', itemIndex);
				return { key: 'variables', payload: { ...key, ...fields } };
			},
			// a chunk of one goes to …/{id} or …/{apiName}, whichever key the item has
			request: (_key, variables) =>
				putItemsRequest('/settings/variables', 'variables', variables, ['id', 'api_name']),
		});
	},
});
