import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../../shared/description/collections';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { runBatched } from '../../../shared/transport';
import { isDigits } from '../../../shared/records/validation';
import { groupField, optionalKeys, variableValue, variableTypeField } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'variableName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Discount Limit',
	},
	{ ...variableTypeField, required: true },
	groupField,
	{
		displayName: 'Value',
		name: 'value',
		type: 'string',
		default: '',
		description: 'Value of the variable, converted to the chosen type (true/false for a checkbox)',
	},
	additionalFieldsCollection([
		{
			displayName: 'API Name',
			name: 'api_name',
			type: 'string',
			default: '',
			placeholder: 'Discount_Limit',
			description: 'Unique API name; derived from the name when empty',
		},
		{ displayName: 'Description', name: 'description', type: 'string', default: '' },
	]),
];

/** CreateVariables — POST /crm/{v}/settings/variables, up to 100 variables per request (custom operation) */
export const { operation, returns, description, execute } = writeOperation('create', {
	resource: 'variable',
	thing: 'variable',
	description: 'Create variables',
	properties,
	async execute() {
		return await runBatched(this, {
			build: (itemIndex) => {
				const name = String(getParameter(this, 'variableName', itemIndex) ?? '').trim();
				if (!name)
					throw new NodeOperationError(this.getNode(), '"Name" is required', { itemIndex });
				const type = getParameter(this, 'variableType', itemIndex) as string;
				const group = String(getParameter(this, 'group', itemIndex) ?? '').trim();
				if (!group)
					throw new NodeOperationError(this.getNode(), '"Variable Group" is required', {
						itemIndex,
					});
				const additional = getParameter(this, 'additionalFields', itemIndex, {}) as IDataObject;
				const payload: IDataObject = {
					name,
					type,
					variable_group: isDigits(group) ? { id: group } : { api_name: group },
					value: variableValue.call(
						this,
						type,
						getParameter(this, 'value', itemIndex, ''),
						itemIndex,
					) as IDataObject[string],
					...optionalKeys(additional),
				};
				return { key: 'variables', payload };
			},
			request: (_key, variables) =>
				itemListRequest({ method: 'POST', path: '/settings/variables' }, 'variables', variables),
		});
	},
});
