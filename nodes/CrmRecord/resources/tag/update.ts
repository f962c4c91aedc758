import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/descriptions';
import { crmApiRequest, runBatched } from '../../../shared/transport';
import { checkDigits } from '../../../shared/validation';
import { TAG_BATCH, TAG_NAME_MAX, checkTagName, tagIdField } from './shared';

/** UpdateTags — PUT /crm/{v}/settings/tags?module=…, up to 100 tags per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a tag',
	description: 'Rename or recolour tags',
};

const properties: INodeProperties[] = [
	moduleSelect,
	tagIdField,
	{
		displayName: 'Name',
		name: 'tagName',
		type: 'string',
		default: '',
		required: true,
		description: `New tag name: at most ${TAG_NAME_MAX} characters, letters, digits, spaces, "_" and "-"`,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [{ displayName: 'Color', name: 'color_code', type: 'color', default: '#57B1FD' }],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['tag'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		batchSize: TAG_BATCH,
		build: (itemIndex) => {
			const module = this.getNodeParameter('module', itemIndex) as string;
			const id = String(this.getNodeParameter('tagId', itemIndex) ?? '').trim();
			checkDigits(this.getNode(), id, 'Tag ID', { itemIndex });
			const name = checkTagName(this.getNode(), this.getNodeParameter('tagName', itemIndex) as string, itemIndex);
			const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
			const tag: IDataObject = { id, name };
			if (options.color_code) tag.color_code = options.color_code;
			return { key: module, payload: tag };
		},
		send: async (module, tags) => {
			const body = await crmApiRequest.call(this, { method: 'PUT', path: '/settings/tags', qs: { module }, body: { tags }, itemListKey: 'tags' });
			return (body.tags ?? []) as IDataObject[];
		},
	});
}
