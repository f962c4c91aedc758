import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/description/optionsCollection';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { runBatched } from '../../../shared/transport';
import type { CrmListRequest } from '../../../shared/transport';
import { pickedDigits } from '../../../shared/records/validation';
import { moduleSelect, pickedValue, recordIdField } from '../../../shared/description/properties';
import { getParameter } from '../../../shared/parameters';

/** Limits of docs/protocol.md §6 for tags (service defaults; the sandbox uses the same). */
export const TAG_NAME_MAX = 25;
const TAGS_PER_RECORD = 10;
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

const tagNamesField: INodeProperties = {
	displayName: 'Tag Names',
	name: 'tagNames',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'VIP,Partner',
	description: `Comma-separated tag names (each at most ${TAG_NAME_MAX} characters, letters, digits, spaces, "_" and "-"); unknown names are created`,
};

/** Options of Create and Update: the tag colour. */
export const tagOptionsProperty = optionsCollection([
	{ displayName: 'Color', name: 'color_code', type: 'color', default: '#57B1FD' },
]);

/** The tag of one Create / Update item, with the colour set under Options if any. */
export function withColour(
	this: IExecuteFunctions,
	itemIndex: number,
	tag: IDataObject,
): IDataObject {
	const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
	if (options.color_code) tag.color_code = options.color_code;
	return tag;
}

/** CreateTags / UpdateTags: one request for up to 100 tags of a module (docs/protocol.md §6). */
export function tagsRequest(
	method: 'POST' | 'PUT',
	module: string,
	tags: IDataObject[],
): CrmListRequest {
	return itemListRequest({ method, path: '/settings/tags', qs: { module } }, 'tags', tags);
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
function checkTagNames(node: INode, value: string, itemIndex: number): string[] {
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
export async function tagNamesQuery(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const names = checkTagNames(
		this.getNode(),
		getParameter(this, 'tagNames', itemIndex) as string,
		itemIndex,
	);
	pickedDigits(this, 'recordId', 'Record ID', itemIndex);
	requestOptions.qs = { ...requestOptions.qs, tag_names: names.join(',') };
	return requestOptions;
}

// ---- tags on records (add, remove) ---------------------------------------------------------------

const overWriteField: INodeProperties = {
	displayName: 'Overwrite',
	name: 'overWrite',
	type: 'boolean',
	default: false,
	description: "Whether to replace the record's tags instead of adding to them",
};

/** Properties of the tag actions on records (add: with Overwrite). */
export function tagActionProperties(mode: 'add' | 'remove', one: boolean): INodeProperties[] {
	const overWrite: INodeProperties = one
		? {
				...overWriteField,
				routing: {
					send: {
						type: 'query',
						property: 'over_write',
						value: '={{ $value ? "true" : "false" }}',
					},
				},
			}
		: overWriteField;
	return [
		moduleSelect,
		one
			? recordIdField
			: {
					...recordIdField,
					description:
						'Numeric ID of the record; items of one module and tag list are sent 100 per request',
				},
		tagNamesField,
		...(mode === 'add' ? [overWrite] : []),
	];
}

/**
 * AddTagsToMultipleRecords / RemoveTagsFromMultipleRecords: one record per input item, items with
 * the same module, tags and overwrite flag sent 100 record IDs per request.
 */
export async function executeRecordsAction(
	this: IExecuteFunctions,
	mode: 'add' | 'remove',
): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		batchSize: TAG_BATCH,
		build: (itemIndex) => {
			const module = pickedValue(this, 'module', itemIndex);
			const id = pickedDigits(this, 'recordId', 'Record ID', itemIndex);
			const names = checkTagNames(
				this.getNode(),
				getParameter(this, 'tagNames', itemIndex) as string,
				itemIndex,
			);
			const overWrite =
				mode === 'add' ? (getParameter(this, 'overWrite', itemIndex, false) as boolean) : false;
			return { key: { module, tagNames: names.join(','), overWrite }, payload: { id } };
		},
		request: ({ module, tagNames, overWrite }, payloads) => {
			const qs: IDataObject = { tag_names: tagNames, ids: payloads.map((p) => p.id).join(',') };
			if (mode === 'add') qs.over_write = overWrite ? 'true' : 'false';
			return {
				method: 'POST',
				path: `/${encodeURIComponent(module)}/actions/${mode}_tags`,
				qs,
				itemListKey: 'data',
			};
		},
	});
}
