import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** An error envelope of the CRM service (docs/protocol.md §11). */
export interface CrmErrorBody extends IDataObject {
	code: string;
	message: string;
	status: 'error';
	details: IDataObject;
}

export function isErrorItem(value: unknown): value is CrmErrorBody {
	return !!value && typeof value === 'object' && (value as IDataObject).status === 'error';
}

/** Finds the service's error envelope in a response body: bare, inside a wrapper list, or the bulk-write shape (§11.4). */
export function errorBodyOf(body: unknown): CrmErrorBody | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const obj = body as IDataObject;
	if (typeof obj.code === 'string' || typeof obj['x-error'] === 'string') {
		return {
			...obj,
			code: String(obj.code ?? obj['x-error']),
			message: String(obj.message ?? obj.ERROR_MESSAGE ?? ''),
			status: 'error',
			details: (obj.details as IDataObject) ?? {},
		};
	}
	for (const value of Object.values(obj)) {
		if (Array.isArray(value)) {
			const failed = value.find(isErrorItem);
			if (failed) return failed as CrmErrorBody;
		}
	}
	return undefined;
}

const HINTS: Record<string, (d: IDataObject) => string> = {
	INVALID_TOKEN: () => 'The access token was refused. Reconnect the CRM credential.',
	OAUTH_SCOPE_MISMATCH: () =>
		'The credential was not granted the scope this operation needs. Add it to the credential\'s Scope (the default list covers every operation) and reconnect.',
	MANDATORY_NOT_FOUND: (d) => `Provide a value for "${d.api_name ?? d.param ?? 'the required field'}".`,
	REQUIRED_PARAM_MISSING: (d) => `The parameter "${d.param ?? d.param_name}" is required.`,
	INVALID_DATA: (d) =>
		d.api_name
			? `Check the value of "${d.api_name}"${d.expected_data_type ? ` (expected ${d.expected_data_type})` : ''}${d.maximum_length ? ` (at most ${d.maximum_length} characters)` : ''}.`
			: d.id
				? `No record with ID ${d.id} was found.`
				: 'Check the values sent.',
	DUPLICATE_DATA: (d) =>
		`A record with the same "${d.api_name}" already exists${d.id ? ` (ID ${d.id})` : ''}. Use Upsert to update it instead.`,
	LIMIT_EXCEEDED: (d) => `At most ${d.limit} ${d.api_name ? `"${d.api_name}" ` : ''}items are allowed per request.`,
	INVALID_MODULE: () => 'Check the module API name (see CRM Metadata → Module → Get Many).',
	TOO_MANY_REQUESTS: () =>
		'The CRM rate limit or API credit allowance was reached and the retries ran out. Try again later or reduce the batch.',
	CONVERTED_RECORD: () => 'Converted leads cannot be updated.',
	RECORD_IN_BLUEPRINT: () => 'Move the record with a blueprint transition (CRM Metadata → Blueprint) instead.',
	NO_PERMISSION: () => 'The CRM user of this credential lacks the permission for this action.',
	INVALID_URL_PATTERN: () => 'The operation is not available on this API variant or the URL is wrong.',
};

function describeDetails(details: IDataObject): string {
	const parts = Object.entries(details ?? {})
		.filter(([, v]) => v !== undefined && v !== null && v !== '')
		.map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
	return parts.length ? `Details: ${parts.join(', ')}.` : '';
}

/** A NodeApiError carrying the service's code, message and details, with a hint. */
export function crmApiError(
	node: INode,
	body: CrmErrorBody,
	options: { httpCode?: string; itemIndex?: number; prefix?: string } = {},
): NodeApiError {
	const hint = HINTS[body.code]?.(body.details ?? {}) ?? '';
	const description = [describeDetails(body.details), hint].filter(Boolean).join(' ');
	const error = new NodeApiError(node, body as unknown as JsonObject, {
		message: `${options.prefix ?? ''}${body.code}: ${body.message}`,
		description,
		httpCode: options.httpCode,
		itemIndex: options.itemIndex,
	});
	// keep the envelope reachable for callers (and tests): error.context.crm = {code, message, details}
	error.context.crm = { code: body.code, message: body.message, details: body.details };
	return error;
}

/** HTTP status and body of an error thrown by n8n's request helpers. */
export function responseOfError(error: unknown): { status?: number; body?: unknown } {
	const e = error as {
		httpCode?: string | null;
		context?: IDataObject;
		cause?: { response?: { status?: number; data?: unknown }; status?: number };
		response?: { status?: number; data?: unknown };
	};
	const status =
		(e.httpCode ? Number(e.httpCode) : undefined) ?? e.cause?.response?.status ?? e.response?.status ?? e.cause?.status;
	const body = e.context?.data ?? e.cause?.response?.data ?? e.response?.data;
	return { status: Number.isFinite(status) ? status : undefined, body: decodeBytes(body) };
}

/**
 * Download requests (encoding `arraybuffer`) get their error envelope as bytes: JSON text is parsed,
 * anything else is left as it is.
 */
function decodeBytes(body: unknown): unknown {
	let bytes: Buffer | undefined;
	if (Buffer.isBuffer(body)) bytes = body;
	else if (body instanceof ArrayBuffer) bytes = Buffer.from(new Uint8Array(body));
	else if (ArrayBuffer.isView(body)) bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	else if (body && typeof body === 'object' && (body as IDataObject).type === 'Buffer' && Array.isArray((body as IDataObject).data)) {
		bytes = Buffer.from((body as { data: number[] }).data);
	}
	if (!bytes) return body;
	try {
		return JSON.parse(bytes.toString('utf8')) as unknown;
	} catch {
		return body;
	}
}
