// Helpers shared by the CRM Admin operations: ID checks, write-result output, body building
// from collections, and the chunk-of-one rule for writes that have a single-item form.
import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodePropertyRouting,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemListRequest } from '../../shared/transport/itemListRequest';
import type { CrmListRequest, NotFound } from '../../shared/transport';
import { crmRouting, writeResult } from '../../shared/transport';
import { checkDigits } from '../../shared/records/validation';
import { getParameter } from '../../shared/parameters';

/** An API name in a path: anything but an all-digit segment, which the service reads as an ID (§3.10). */
const API_NAME_RE = /^(?!\d+$)\S+$/;

/** `key` as given; NodeOperationError unless an API name (API_NAME_RE). */
export function checkApiName(node: INode, key: string, label: string, itemIndex: number): string {
	if (!API_NAME_RE.test(key))
		throw new NodeOperationError(node, `${label} must be a non-numeric API name, got "${key}"`, {
			itemIndex,
		});
	return key;
}

/** "<verb> By" selector of the things addressed by ID or by API name (variables, variable groups). */
function keySelectorField(name: string, verb: string): INodeProperties {
	return {
		displayName: `${verb} By`,
		name,
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'ID', value: 'id' },
			{ name: 'API Name', value: 'apiName' },
		],
		default: 'id',
	};
}

/**
 * The parameters of an operation by ID or API name: the `selector` ("<verb> By"), `idField` shown
 * for ID and the text parameter `apiName` ("<label> API Name") shown for API name.
 */
export function keyFields(
	selector: string,
	verb: string,
	idField: INodeProperties,
	apiName: { label: string; name: string; placeholder: string },
): INodeProperties[] {
	return [
		keySelectorField(selector, verb),
		{ ...idField, displayOptions: { show: { [selector]: ['id'] } } },
		{
			displayName: `${apiName.label} API Name`,
			name: apiName.name,
			type: 'string',
			default: '',
			required: true,
			placeholder: apiName.placeholder,
			displayOptions: { show: { [selector]: ['apiName'] } },
		},
	];
}

/** The parameters of a Get by ID or API name: the `getBy` selector names which key parameter counts. */
interface KeyParameters {
	/** "Variable", "Variable Group": the labels are "<label> ID" and "<label> API Name". */
	label: string;
	id: string;
	apiName: string;
}

function keyOf(this: IExecuteSingleFunctions, keys: KeyParameters): { byId: boolean; key: string } {
	const itemIndex = this.getItemIndex();
	const byId = getParameter(this, 'getBy', itemIndex, 'id') === 'id';
	return {
		byId,
		key: String(getParameter(this, byId ? keys.id : keys.apiName, itemIndex, '') ?? '').trim(),
	};
}

/** preSend: the path key checked before sending, digits by ID, an API name otherwise (§3.10). */
function keyPreSend(keys: KeyParameters) {
	return async function (
		this: IExecuteSingleFunctions,
		request: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { byId, key } = keyOf.call(this, keys);
		if (byId)
			checkDigits(this.getNode(), key, `${keys.label} ID`, { itemIndex: this.getItemIndex() });
		else checkApiName(this.getNode(), key, `${keys.label} API Name`, this.getItemIndex());
		return request;
	};
}

/** Routing of a GET of `path/{key}`, the key by ID or API name as `getBy` says, checked before sending. */
function byKeyRouting(path: string, keys: KeyParameters): INodePropertyRouting {
	return {
		request: {
			method: 'GET',
			url: `=${path}/{{ toPathSegment(String($parameter.getBy === "apiName" ? $parameter.${keys.apiName} : $parameter.${keys.id}).trim()) }}`,
		},
		send: { preSend: [keyPreSend(keys)] },
	};
}

/** A missing ID or API name: "No <thing> with ID …" / "No <thing> with API name …". */
function noneWithKey(thing: string, keys: KeyParameters): NotFound {
	return function (this: IExecuteSingleFunctions) {
		const { byId, key } = keyOf.call(this, keys);
		return `No ${thing} with ${byId ? 'ID' : 'API name'} ${key}`;
	};
}

/**
 * The Get by ID or API name (routed) of variables and variable groups: "Get a <thing>", GET
 * `path/{key}` (byKeyRouting), the item unwrapped from `rootProperty`, a missing key failing with
 * "No <thing> with ID …" or "… with API name …".
 */
export function getByKeyOption(spec: {
	thing: string;
	path: string;
	keys: KeyParameters;
	rootProperty: string;
}): INodePropertyOptions {
	return {
		name: 'Get',
		value: 'get',
		action: `Get a ${spec.thing}`,
		description: `Retrieve one ${spec.thing} by ID or API name`,
		routing: crmRouting(byKeyRouting(spec.path, spec.keys), {
			rootProperty: spec.rootProperty,
			notFound: noneWithKey(spec.thing, spec.keys),
		}),
	};
}

/** A numeric ID parameter, trimmed; NodeOperationError naming the parameter otherwise. */
export function idParameter(
	this: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const raw = getParameter(this, name, itemIndex);
	if (typeof raw === 'number') {
		throw new NodeOperationError(this.getNode(), `${label} must be given as text`, {
			itemIndex,
			description:
				'IDs exceed JavaScript number precision; pass them as strings, e.g. "4876876000000225013".',
		});
	}
	const id = String(raw ?? '').trim();
	checkDigits(this.getNode(), id, label, {
		itemIndex,
		description: `Set "${label}" to a numeric ID such as 4876876000000225013.`,
	});
	return id;
}

/**
 * `postReceive` for declarative writes: the result items of the body (a wrapper list, or a wrapper
 * object such as `base_currency`), each with its `id` first. Error items stay error items (the
 * request runner turns them into node errors).
 */
export async function writeResults(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = (response.body ?? {}) as IDataObject;
	if (typeof body.status === 'string') return [{ json: writeResult(body) }];
	for (const value of Object.values(body)) {
		if (Array.isArray(value))
			return (value as IDataObject[]).map((item) => ({ json: writeResult(item) }));
		if (value && typeof value === 'object' && typeof (value as IDataObject).status === 'string') {
			return [{ json: writeResult(value as IDataObject) }];
		}
	}
	return [{ json: body }];
}

/** The set keys of a collection parameter (empty strings dropped). */
export function collectionValues(values: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(values ?? {})) {
		if (value === undefined || value === null || value === '') continue;
		out[key] = value;
	}
	return out;
}

/** `{ "id": "<id>" }` for a lookup given as an ID. */
export const lookup = (id: unknown): IDataObject => ({ id: String(id).trim() });

/** A collection that must hold at least one field (update operations). */
export function requireSome(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	values: IDataObject,
	label: string,
	itemIndex: number,
): void {
	if (Object.keys(values).length === 0) {
		throw new NodeOperationError(this.getNode(), `Add at least one field to "${label}"`, {
			itemIndex,
		});
	}
}

/**
 * PUT of a chunk of items to `path`; a chunk of one goes to the single-item form `path/{key}`, its
 * key (the first of `keyNames` it holds) moved from the item into the path.
 */
export function putItemsRequest(
	path: string,
	listKey: string,
	items: IDataObject[],
	keyNames = ['id'],
): CrmListRequest {
	if (items.length !== 1) return itemListRequest({ method: 'PUT', path }, listKey, items);
	const item = { ...items[0] };
	let key: unknown;
	for (const name of keyNames) {
		key ??= item[name];
		delete item[name];
	}
	return itemListRequest(
		{ method: 'PUT', path: `${path}/${encodeURIComponent(String(key))}` },
		listKey,
		[item],
	);
}

/** DELETE of a chunk of IDs: `path?ids=…`, or the single-item form `path/{id}` for a chunk of one. */
export function deleteIdsRequest(
	path: string,
	listKey: string,
	items: IDataObject[],
): CrmListRequest {
	const ids = items.map((item) => String(item.id));
	return ids.length === 1
		? { method: 'DELETE', path: `${path}/${encodeURIComponent(ids[0])}`, itemListKey: listKey }
		: { method: 'DELETE', path, qs: { ids: ids.join(',') }, itemListKey: listKey };
}
