import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue } from '../../../shared/description/properties';
import { runBatched } from '../../../shared/transport';
import { digitsParameter } from '../../../shared/records/validation';
import {
	TAG_BATCH,
	TAG_NAME_MAX,
	checkTagName,
	tagsRequest,
	tagIdField,
	tagOptionsProperty,
	withColour,
} from './shared';
import { getParameter } from '../../../shared/parameters';

/** UpdateTags — PUT /crm/{v}/settings/tags?module=…, up to 100 tags per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a tag',
	description: 'Rename or recolour tags',
};

export const returns =
	'one item per updated tag: its id and status, with its name and colour under details';

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
	tagOptionsProperty,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		batchSize: TAG_BATCH,
		build: (itemIndex) => {
			const module = pickedValue(this, 'module', itemIndex);
			const id = digitsParameter(this, 'tagId', 'Tag ID', itemIndex);
			const name = checkTagName(
				this.getNode(),
				getParameter(this, 'tagName', itemIndex) as string,
				itemIndex,
			);
			return { key: module, payload: withColour.call(this, itemIndex, { id, name }) };
		},
		request: (module, tags) => tagsRequest('PUT', module, tags),
	});
}
