import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { pickedValue } from '../description/properties';
import { getParameter } from '../parameters';

/**
 * A value refused before sending, shaped like the service's own refusal (docs/protocol.md §11.2):
 * `error.context.crm = {code, message, details}` as on a NodeApiError of the service, so a failed
 * item carries `code` and `details.api_name` whether the CRM or the node refused it.
 */
function refusedValue(
	node: INode,
	refusal: { code?: string; message: string; details: IDataObject },
	options: { itemIndex?: number; description?: string } = {},
): NodeOperationError {
	const error = new NodeOperationError(node, refusal.message, options);
	error.context.crm = {
		code: refusal.code ?? 'INVALID_DATA',
		message: refusal.message,
		details: refusal.details,
	};
	return error;
}

/** What the value check of a field needs from the module's field metadata (GetFields). */
interface FieldToCheck {
	api_name: string;
	data_type: string;
	field_label?: string;
	length?: number;
}

/** `Field "<api_name>" expects <expected>, got "<value>"`, refused as INVALID_DATA on that field. */
export function fieldValueRefused(
	node: INode,
	field: FieldToCheck,
	expected: string,
	value: unknown,
	itemIndex?: number,
): NodeOperationError {
	return refusedValue(
		node,
		{
			message: `Field "${field.api_name}" expects ${expected}, got "${Array.isArray(value) ? value.join(', ') : String(value)}"`,
			details: { api_name: field.api_name, expected_data_type: field.data_type },
		},
		{ itemIndex, description: `Change the value of ${fieldLabel(field)} (${field.data_type}).` },
	);
}

/** "Last Name (Last_Name)", or the API name alone when the label is the same or unknown. */
function fieldLabel(field: Pick<FieldToCheck, 'api_name' | 'field_label'>): string {
	return field.field_label && field.field_label !== field.api_name
		? `${field.field_label} (${field.api_name})`
		: field.api_name;
}

/** Text types whose metadata `length` the service enforces (INVALID_DATA `maximum_length`, §11.2). */
const LENGTH_CHECKED = new Set(['text', 'textarea', 'email', 'phone', 'website']);

/**
 * Refuses a text longer than its field allows, as the service would (INVALID_DATA with
 * `maximum_length`), before anything is sent.
 */
export function checkTextLength(
	node: INode | (() => INode),
	field: FieldToCheck,
	value: unknown,
	itemIndex?: number,
): void {
	if (
		typeof value !== 'string' ||
		!LENGTH_CHECKED.has(field.data_type) ||
		!field.length ||
		value.length <= field.length
	)
		return;
	throw refusedValue(
		// a getter: n8n's getNode() copies the node, too dear to call per field of every item
		typeof node === 'function' ? node() : node,
		{
			message: `Field ${fieldLabel(field)} is too long: ${value.length} characters, at most ${field.length}`,
			details: { api_name: field.api_name, maximum_length: field.length },
		},
		{
			itemIndex,
			description: `Shorten the value of ${fieldLabel(field)} to ${field.length} characters.`,
		},
	);
}

/** IDs of the service are decimal digits (Long on the interface, strings on the wire, docs/protocol.md §3.1). */
export const ID_RE = /^\d+$/;

/** A comma-separated (or array) list parameter as trimmed strings, empty entries dropped. */
export function listOf(value: unknown): string[] {
	// an unset option, read for every item of a batched write
	if (value === undefined || value === null || value === '') return [];
	const parts = Array.isArray(value) ? value : String(value ?? '').split(',');
	return parts.map((v) => String(v).trim()).filter(Boolean);
}

/** Is the text an ID of the service (digits only)? */
export function isDigits(value: unknown): boolean {
	return ID_RE.test(String(value ?? ''));
}

interface DigitsCheckOptions {
	itemIndex?: number;
	description?: string;
	/** the API name the ID goes to (details.api_name of the refusal); `id` by default */
	apiName?: string;
}

/** The one message of a malformed ID: `<Label> must be digits, got "<value>"`. */
export function digitsMessage(label: string, value: string): string {
	return `${label} must be digits, got "${value}"`;
}

/**
 * The message of an ID that is empty (typically an expression that yielded nothing):
 * `<Label> is empty (item N)`, N as n8n numbers items.
 */
function emptyIdMessage(label: string, itemIndex?: number): string {
	return `${label} is empty${itemIndex === undefined ? '' : ` (item ${itemIndex})`}`;
}

/**
 * The one ID check of the package: answers `value` when it is digits, else throws
 * `<Label> must be digits, got "<value>"` (or `<Label> is empty (item N)`), refused as INVALID_DATA
 * (see refusedValue). Callers trim first where the parameter allows blanks.
 */
export function checkDigits(
	node: INode,
	value: string,
	label: string,
	options: DigitsCheckOptions = {},
): string {
	if (!ID_RE.test(value)) {
		const { apiName, ...rest } = options;
		throw refusedValue(
			node,
			{
				message:
					value.trim() === '' ? emptyIdMessage(label, rest.itemIndex) : digitsMessage(label, value),
				details: { api_name: apiName ?? 'id', expected_data_type: 'id' },
			},
			rest,
		);
	}
	return value;
}

/** The value of a picker of an ID (record, attachment: pickedValue), checked to be digits (checkDigits). */
export function pickedDigits(
	ctx: IExecuteFunctions | IExecuteSingleFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	return checkDigits(ctx.getNode(), pickedValue(ctx, name, itemIndex), label, { itemIndex });
}

/** The value of an ID parameter of the item, trimmed and checked to be digits (checkDigits). */
export function digitsParameter(
	ctx: IExecuteFunctions | IExecuteSingleFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = String(getParameter(ctx, name, itemIndex) ?? '').trim();
	return checkDigits(ctx.getNode(), value, label, { itemIndex });
}

/**
 * The URL path segment of an ID parameter, as a routing expression. The URL is resolved before the
 * preSend checks run, and toPathSegment("") throws n8n's generic "Invalid identifier": an empty ID
 * becomes a placeholder here, so that requireDigits names the parameter ("<Label> is empty (item N)").
 */
export function idPathSegment(parameter: string): string {
	return `{{ toPathSegment(String($parameter.${parameter} ?? "").trim() || "-") }}`;
}

/** `routing.send.preSend` check that a path ID parameter is digits, reported before anything is sent. */
export function requireDigits(name: string, label: string) {
	return async function (
		this: IExecuteSingleFunctions,
		request: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const id = pickedValue(this, name);
		checkDigits(this.getNode(), id, label, {
			itemIndex: this.getItemIndex(),
			description: `Set "${label}" to a numeric ID such as 4876876000000225013.`,
		});
		return request;
	};
}
