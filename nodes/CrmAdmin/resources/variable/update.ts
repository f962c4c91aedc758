import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { crmApiRequest, runBatched } from '../../../shared/transport';
import { API_NAME_RE, idParameter, requireSome } from '../shared';
import { VARIABLE_TYPES, optionalKeys, variableValue, variableKeyFields } from './shared';

/**
 * UpdateVariables — PUT /crm/{v}/settings/variables (up to 100 per request, items carry `id` or `api_name`);
 * UpdateVariableById — PUT /crm/{v}/settings/variables/{id}, UpdateVariableByAPIName — PUT …/{apiName} (a chunk of one).
 */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a variable',
	description: 'Update variables by ID or API name',
};

const properties: INodeProperties[] = [
	...variableKeyFields('updateBy', 'Update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Description', name: 'description', type: 'string', default: '' },
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{ displayName: 'Type', name: 'type', type: 'options', options: VARIABLE_TYPES, default: 'text', description: 'New data type; the value must fit it' },
			{
				displayName: 'Value',
				name: 'value',
				type: 'string',
				default: '',
				description: 'New value; converted to the Type given here, else sent as text for the CRM to read by the variable type',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['variable'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		build: (itemIndex) => {
			const by = this.getNodeParameter('updateBy', itemIndex, 'id') as string;
			let key: IDataObject;
			if (by === 'id') key = { id: idParameter.call(this, 'variableId', 'Variable ID', itemIndex) };
			else {
				const apiName = String(this.getNodeParameter('variableApiName', itemIndex) ?? '').trim();
				if (!API_NAME_RE.test(apiName)) {
					throw new NodeOperationError(this.getNode(), `Variable API Name must be a non-numeric API name, got "${apiName}"`, {
						itemIndex,
					});
				}
				key = { api_name: apiName };
			}
			const values = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
			const fields: IDataObject = optionalKeys(values);
			if (typeof values.name === 'string' && values.name.trim() !== '') fields.name = values.name.trim();
			if (values.type) fields.type = values.type;
			if (values.value !== undefined) {
				fields.value = (values.type ? variableValue.call(this, String(values.type), values.value, itemIndex) : values.value === '' ? null : values.value) as IDataObject[string];
			}
			requireSome.call(this, fields, 'Update Fields', itemIndex);
			return { key: 'variables', payload: { ...key, ...fields } };
		},
		send: async (_key, variables) => {
			if (variables.length === 1) {
				const { id, api_name: apiName, ...variable } = variables[0];
				const path = `/settings/variables/${encodeURIComponent(String(id ?? apiName))}`;
				const body = await crmApiRequest.call(this, { method: 'PUT', path, body: { variables: [variable] }, itemListKey: 'variables' });
				return (body.variables ?? []) as IDataObject[];
			}
			const body = await crmApiRequest.call(this, { method: 'PUT', path: '/settings/variables', body: { variables }, itemListKey: 'variables' });
			return (body.variables ?? []) as IDataObject[];
		},
	});
}

