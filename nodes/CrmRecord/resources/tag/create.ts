import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue } from '../../../shared/description/properties';
import { runBatched } from '../../../shared/transport';
import {
	TAGS_PER_MODULE,
	TAG_BATCH,
	TAG_NAME_MAX,
	checkTagName,
	tagsRequest,
	tagOptionsProperty,
	withColour,
} from './shared';
import { getParameter } from '../../../shared/parameters';

/** CreateTags — POST /crm/{v}/settings/tags?module=…, up to 100 tags per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a tag',
	description: 'Create tags in a module',
};

export const returns =
	'one item per created tag: its id and status, with its name and colour under details';

const properties: INodeProperties[] = [
	moduleSelect,
	{
		displayName: 'Name',
		name: 'tagName',
		type: 'string',
		default: '',
		required: true,
		description: `Tag name: at most ${TAG_NAME_MAX} characters, letters, digits, spaces, "_" and "-"`,
	},
	tagOptionsProperty,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const perModule = new Map<string, number>();
	return await runBatched(this, {
		batchSize: TAG_BATCH,
		build: (itemIndex) => {
			const module = pickedValue(this, 'module', itemIndex);
			const name = checkTagName(
				this.getNode(),
				getParameter(this, 'tagName', itemIndex) as string,
				itemIndex,
			);
			const count = (perModule.get(module.toLowerCase()) ?? 0) + 1;
			perModule.set(module.toLowerCase(), count);
			if (count > TAGS_PER_MODULE) {
				throw new NodeOperationError(
					this.getNode(),
					`More than ${TAGS_PER_MODULE} tags for module ${module}; a module can have at most ${TAGS_PER_MODULE} tags`,
					{
						itemIndex,
					},
				);
			}
			return { key: module, payload: withColour.call(this, itemIndex, { name }) };
		},
		request: (module, tags) => tagsRequest('POST', module, tags),
	});
}
