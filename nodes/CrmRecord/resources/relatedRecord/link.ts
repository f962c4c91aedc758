import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { relationProperties, runRelationBatches } from './shared';
import { getParameter } from '../../../shared/parameters';

/** UpdateRelatedRecords (+UsingExternalId) — PUT /crm/{v}/{module}/{recordId}/{relatedList}, up to 100 links per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Link / Update',
	value: 'link',
	action: 'Link or update a related record',
	description:
		"Link records to a record's related list, or update the relation fields of existing links",
};

export const returns = 'one item per linked record: its id and status';

const properties = relationProperties([
	{
		displayName: 'Relation Fields',
		name: 'relationFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Relation Field',
		description:
			"Fields of the link itself, e.g. Contact_Role on a deal's contacts or Member_Status on a campaign's leads",
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'Contact_Role',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
]);

export const description = updateDisplayOptions(
	{ show: { resource: ['relatedRecord'], operation: ['link'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runRelationBatches.call(
		this,
		'PUT',
		({ relatedField, relatedId }, itemIndex) => {
			const keyField = relatedField.trim() ? relatedField.trim().split('.').pop()! : 'id';
			const payload: IDataObject = { [keyField]: relatedId };
			const pairs =
				(getParameter(this, 'relationFields.field', itemIndex, []) as Array<{
					name: string;
					value: string;
				}>) ?? [];
			for (const { name, value } of pairs) {
				if (!name) continue;
				if (name === 'id' || name === keyField) {
					throw new NodeOperationError(this.getNode(), `"${name}" cannot be a relation field`, {
						itemIndex,
					});
				}
				payload[name] = value;
			}
			return payload;
		},
		(data) => ({ body: { data } }),
	);
}
