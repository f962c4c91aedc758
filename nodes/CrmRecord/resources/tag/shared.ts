import type { IDataObject, IExecuteFunctions, IExecuteSingleFunctions, IHttpRequestOptions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/optionsCollection';
import { sendItemList } from '../../../shared/itemLists';
import { checkDigits } from '../../../shared/validation';
import { pickedValue } from '../../../shared/descriptions';

/** Limits of docs/protocol.md §6 for tags (service defaults; the sandbox uses the same). */
export const TAG_NAME_MAX = 25;
export const TAGS_PER_RECORD = 10;
export const TAGS_PER_MODULE = 100;
/** Records per multiple-record tag action and tags per create/update request. */
export const TAG_BATCH = 100;
/** Letters, digits, spaces, `_` and `-` ("no special characters"). */
const TAG_NAME_PATTERN = /^[\p{L}\p{N} _-]+$/u;

export const tagIdField: INodeProperties = {
	displayName: 'Tag Name or ID',
	name: 'tagId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getTags', loadOptionsDependsOn: ['module'] },
	default: '',
	required: true,
	description:
		'The tag. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const tagNamesField: INodeProperties = {
	displayName: 'Tag Names',
	name: 'tagNames',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'VIP,Partner',
	description: `Comma-separated tag names (each at most ${TAG_NAME_MAX} characters, letters, digits, spaces, "_" and "-"); unknown names are created`,
};

/** Options of Create and Update: the tag colour. */
export const tagOptionsProperty = optionsCollection([{ displayName: 'Color', name: 'color_code', type: 'color', default: '#57B1FD' }]);

/** The tag of one Create / Update item, with the colour set under Options if any. */
export function withColour(this: IExecuteFunctions, itemIndex: number, tag: IDataObject): IDataObject {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (options.color_code) tag.color_code = options.color_code;
	return tag;
}

/** CreateTags / UpdateTags: one request for up to 100 tags of a module (docs/protocol.md §6). */
export async function sendTags(this: IExecuteFunctions, method: 'POST' | 'PUT', module: string, tags: IDataObject[]): Promise<IDataObject[]> {
	return await sendItemList.call(this, { method, path: '/settings/tags', qs: { module } }, 'tags', tags);
}

/** Checks one tag name against the service limits; throws a NodeOperationError naming the limit. */
export function checkTagName(node: INode, name: string, itemIndex: number): string {
	const trimmed = name.trim();
	if (!trimmed) throw new NodeOperationError(node, 'A tag name is empty', { itemIndex });
	if (trimmed.length > TAG_NAME_MAX) {
		throw new NodeOperationError(
			node,
			`Tag name "${trimmed}" has ${trimmed.length} characters; tag names may have at most ${TAG_NAME_MAX} characters`,
			{ itemIndex },
		);
	}
	if (!TAG_NAME_PATTERN.test(trimmed)) {
		throw new NodeOperationError(node, `Tag name "${trimmed}" contains special characters`, {
			itemIndex,
			description: 'Tag names may contain letters, digits, spaces, "_" and "-".',
		});
	}
	return trimmed;
}

/** The names of a "Tag Names" value: each checked, at most 10 (the per-record limit). */
export function checkTagNames(node: INode, value: string, itemIndex: number): string[] {
	const names = String(value ?? '')
		.split(',')
		.map((n) => n.trim())
		.filter(Boolean)
		.map((n) => checkTagName(node, n, itemIndex));
	if (names.length === 0) throw new NodeOperationError(node, 'Tag Names is empty', { itemIndex });
	const unique = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];
	if (unique.length > TAGS_PER_RECORD) {
		throw new NodeOperationError(
			node,
			`${unique.length} tags given; a record can have at most ${TAGS_PER_RECORD} tags`,
			{ itemIndex },
		);
	}
	return unique;
}

/** preSend of the one-record tag actions: checks the names and sends them as `tag_names`. */
export async function tagNamesQuery(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const names = checkTagNames(this.getNode(), this.getNodeParameter('tagNames') as string, this.getItemIndex());
	const recordId = pickedValue(this, 'recordId');
	checkDigits(this.getNode(), recordId, 'Record ID', { itemIndex: this.getItemIndex() });
	requestOptions.qs = { ...requestOptions.qs, tag_names: names.join(',') };
	return requestOptions;
}
