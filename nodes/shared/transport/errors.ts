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

/** Names a field for a person: its label and API name when the label is known, else the API name. */
type FieldLabels = (apiName: string) => string | undefined;

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** The API name (or parameter) an error is about. */
const apiNameOf = (details: IDataObject) =>
	text(details.api_name ?? details.param ?? details.param_name);

function fieldName(details: IDataObject, labels?: FieldLabels): string {
	const apiName = apiNameOf(details);
	if (!apiName) return '';
	const label = labels?.(apiName);
	return label && label !== apiName ? `${label} (${apiName})` : apiName;
}

/** The service's own message as a sentence: capitalised, no trailing dot. */
function sentence(message: string): string {
	const trimmed = message.trim().replace(/\.$/, '');
	return trimmed ? trimmed[0].toUpperCase() + trimmed.slice(1) : 'The CRM refused the request';
}

type Plain = (d: IDataObject, field: string, message: string) => string;

/**
 * A short sentence per error code of docs/protocol.md §11–§12 (the code itself follows it in the
 * message). Codes not listed read as the service's message, naming the field when there is one.
 */
const PLAIN: Record<string, Plain> = {
	INVALID_TOKEN: () => 'The CRM refused the access token',
	AUTHENTICATION_FAILURE: () => 'The CRM could not authenticate the credential',
	AUTHORIZATION_FAILED: () => 'The CRM refused the credential for this request',
	OAUTH_SCOPE_MISMATCH: () => 'The credential lacks the permission (scope) for this operation',
	NO_PERMISSION: (d) =>
		`The CRM user lacks the permission for this action${Array.isArray(d.permissions) && d.permissions.length ? ` (${d.permissions.join(', ')})` : ''}`,
	FEATURE_NOT_SUPPORTED: () => 'This feature is not available in the CRM account',
	FEATURE_NOT_ENABLED: () => 'This feature is not enabled in the CRM account',
	NOT_SUPPORTED_FEATURE: () => 'This feature is not available in the CRM account',
	TERRITORY_NOT_ENABLED: () => 'Territory management is not enabled in the CRM account',
	CURRENCIES_NOT_ENABLED: () => 'Multiple currencies are not enabled in the CRM account',
	INVALID_URL_PATTERN: () => 'The CRM does not offer this operation at this address',
	RESOURCE_NOT_FOUND: (d, f) =>
		f
			? `Nothing found for ${f}${d.value ? ` ${text(d.value)}` : ''}`
			: 'The CRM found no such resource',
	NOT_FOUND: () => 'The CRM found nothing at this address',
	NO_RECORDS_FOUND: () => 'No matching records were found',
	INVALID_REQUEST_METHOD: () => 'The CRM does not take this request method here',
	INVALID_MODULE: () => 'The module does not exist or cannot be used through the API',
	MODULE_NOT_AVAILABLE: () => 'The module cannot be used for this job',
	MODULE_NOT_SUPPORTED: () => 'The module cannot be used for this job',
	REQUIRED_PARAM_MISSING: (_d, f) =>
		f ? `Required parameter ${f} is missing` : 'A required parameter is missing',
	MANDATORY_NOT_FOUND: (_d, f) =>
		f ? `Required field ${f} is missing` : 'A required value is missing',
	MISSING_REQUIRED_KEY: (_d, f) =>
		f ? `Required key ${f} is missing` : 'A required key is missing',
	EXPECTED_FIELD_MISSING: (_d, f) =>
		f ? `Field ${f} is expected but missing` : 'An expected field is missing',
	DEPENDENT_FIELD_MISSING: (_d, f) =>
		f ? `Field ${f} needs a value in the field it depends on` : 'A dependent field is missing',
	MANDATORY_FIELDS_NOT_MAPPED: (_d, f) =>
		f
			? `Required field ${f} is not mapped to a column`
			: 'Not every required field is mapped to a column',
	INVALID_DATA: (d, f, m) => {
		if (f && d.maximum_length !== undefined)
			return `Field ${f} is too long (at most ${text(d.maximum_length)} characters)`;
		if (f && d.expected_data_type)
			return `Field ${f} has an invalid value (expected ${text(d.expected_data_type)})`;
		if (f) return `Field ${f} has an invalid value`;
		if (d.id) return `No record with ID ${text(d.id)} was found, or the ID is invalid`;
		return `The CRM refused a value: ${sentence(m).toLowerCase()}`;
	},
	PATTERN_NOT_MATCHED: (_d, f) =>
		f
			? `Field ${f} does not match the required pattern`
			: 'A value does not match the required pattern',
	UNABLE_TO_PARSE_DATA_TYPE: (_d, f) =>
		f ? `The value of ${f} is not of the field's type` : "A value is not of its field's type",
	DUPLICATE_DATA: (d, f) =>
		`A record with the same ${f || 'unique value'} already exists${d.id ? ` (ID ${text(d.id)})` : ''}`,
	LIMIT_EXCEEDED: (d, f) =>
		d.limit !== undefined
			? `Too many ${f || 'items'} in one request (at most ${text(d.limit)})`
			: `A limit of the CRM was exceeded${f ? ` (${f})` : ''}`,
	LICENSE_LIMIT_EXCEEDED: () => "The CRM account's licence limit was reached",
	TOO_MANY_REQUESTS: () => "The CRM's rate limit or API credit allowance was reached",
	INTERNAL_ERROR: () => 'The CRM had an internal error',
	INTERNAL_SERVER_ERROR: () => 'The CRM had an internal error',
	RECORD_LOCKED: () => 'The record is locked (e.g. waiting for approval)',
	RECORD_IN_BLUEPRINT: (_d, f) =>
		`The record is in a blueprint${f ? `: ${f} can only change through a transition` : ''}`,
	RECORD_NOT_IN_PROCESS: () => 'The record is not in this process',
	CONVERTED_RECORD: () => 'The lead has already been converted and cannot be changed',
	ID_ALREADY_CONVERTED: () => 'The lead has already been converted',
	NOT_APPROVED: () => 'The record is not approved yet',
	CANNOT_DELETE: (_d, _f, m) => `Cannot delete: ${sentence(m).toLowerCase()}`,
	INVALID_FILE_ID: (d) =>
		`The CRM knows no uploaded file${d.file_id ? ` with ID ${text(d.file_id)}` : ''}`,
	INVALID_FILE_FORMAT: () => 'The file is not in a format the CRM takes',
	FILE_TOO_LARGE: () => 'The file is too large for the CRM',
	FILE_SIZE_MORE_THAN_ALLOWED_SIZE: () => 'The file is too large for the CRM',
	FILE_SIZE_EXCEEDS: () => 'The file is too large for the CRM',
	HEADER_LIMIT_EXCEEDED: () => 'The file has more columns than the CRM takes',
	INVALID_FIELD: (_d, f) =>
		f ? `The module has no field ${f}` : 'A field is unknown to the module',
	INVALID_FIELD_NAME: (_d, f) =>
		f ? `The module has no field ${f}` : 'A field is unknown to the module',
	SYNTAX_ERROR: (d) =>
		`The query has a syntax error${d.near ? ` near "${text(d.near)}"` : ''}${d.line !== undefined ? ` at line ${text(d.line)}, column ${text(d.column)}` : ''}`,
	INVALID_QUERY: (d) =>
		`The query is invalid${d.column_name ? ` (column ${text(d.column_name)})` : ''}`,
	INVALID_CRITERIA: (_d, f) => `The criteria are invalid${f ? ` (field ${f})` : ''}`,
	FIELD_AND_COMPARATOR_IN_CRITERIA_NOT_COMPATIBLE: (d, f) =>
		`Field ${f || 'of a condition'} cannot be compared with ${text(d.comparator) || 'this comparator'}`,
	ALREADY_SCHEDULED: () => 'A mass action is already scheduled for this view',
	ID_ALREADY_ACTIVE: () => 'The user is already active',
	ID_ALREADY_DEACTIVATED: () => 'The user is already deactivated',
	ID_ALREADY_DELETED: () => 'The user is already deleted',
	CANNOT_UPDATE_DELETED_USER: () => 'A deleted user cannot be changed',
	EMAIL_UPDATE_NOT_ALLOWED: () => "The user's email address cannot be changed",
	TAG_ID_NOT_FOUND: (d) => `No tag${d.id ? ` with ID ${text(d.id)}` : ''} was found`,
	SHARE_LIMIT_EXCEEDED: () => 'The record is shared with too many users',
};

/**
 * The person-facing sentence of a service error, followed by its code: "Required field Last Name
 * (Last_Name) is missing [MANDATORY_NOT_FOUND]". `labels` names fields by their label when known.
 */
function plainErrorMessage(
	body: Pick<CrmErrorBody, 'code' | 'message' | 'details'>,
	labels?: FieldLabels,
): string {
	const details = body.details ?? {};
	const field = fieldName(details, labels);
	const plain = PLAIN[body.code];
	const message = body.message ?? '';
	// unlisted codes: the service's message, plus the field when the message does not name it
	const head = plain
		? plain(details, field, message)
		: `${sentence(message)}${field && !message.includes(apiNameOf(details)) ? ` (field ${field})` : ''}`;
	return `${head} [${body.code}]`;
}

/** What the person can do about it, where there is something to say. */
const HINTS: Record<string, (d: IDataObject, field: string) => string> = {
	INVALID_TOKEN: () => 'Reconnect the CRM credential.',
	OAUTH_SCOPE_MISMATCH: () =>
		"Add the scope to the credential's Scope (the default list covers every operation) and reconnect.",
	MANDATORY_NOT_FOUND: (_d, f) => `Provide a value for ${f || 'the required field'}.`,
	REQUIRED_PARAM_MISSING: (_d, f) => `Set ${f || 'the parameter'}.`,
	INVALID_DATA: (d, f) =>
		f ? `Change the value of ${f}.` : d.id ? 'Check the record ID.' : 'Check the values sent.',
	DUPLICATE_DATA: () => 'Use Create or Update (upsert) to update the existing record instead.',
	INVALID_MODULE: () => 'Check the module API name (see CRM Metadata → Module → Get Many).',
	TOO_MANY_REQUESTS: () => 'The retries ran out. Try again later or send fewer items per run.',
	RECORD_IN_BLUEPRINT: () =>
		'Move the record with a blueprint transition (CRM Metadata → Blueprint) instead.',
	NO_PERMISSION: () =>
		'Ask a CRM administrator for the permission, or use a credential of a user who has it.',
	INVALID_URL_PATTERN: () =>
		"The operation may need API v2.1 (see the credential's API Variant), or the URL is wrong.",
	INTERNAL_ERROR: () => 'Try again later.',
	INTERNAL_SERVER_ERROR: () => 'Try again later.',
};

function describeDetails(details: IDataObject): string {
	const parts = Object.entries(details ?? {})
		.filter(([, v]) => v !== undefined && v !== null && v !== '')
		.map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
	return parts.length ? `Details: ${parts.join(', ')}.` : '';
}

interface CrmErrorOptions {
	httpCode?: string;
	itemIndex?: number;
	prefix?: string;
	/** field labels of the module, when its metadata is at hand */
	labels?: FieldLabels;
}

/**
 * A NodeApiError whose message is a plain sentence followed by the code; the description says what
 * to do, and keeps the service's own message, code and details (api_name, json_path, …).
 */
export function crmApiError(
	node: INode,
	body: CrmErrorBody,
	options: CrmErrorOptions = {},
): NodeApiError {
	const details = body.details ?? {};
	const hint = HINTS[body.code]?.(details, fieldName(details, options.labels)) ?? '';
	const said = body.message
		? `The CRM answered ${body.code}: ${body.message.trim().replace(/\.$/, '')}.`
		: '';
	const description = [hint, said, describeDetails(details)].filter(Boolean).join(' ');
	const error = new NodeApiError(node, body as unknown as JsonObject, {
		message: `${options.prefix ?? ''}${plainErrorMessage(body, options.labels)}`,
		description,
		httpCode: options.httpCode,
		itemIndex: options.itemIndex,
	});
	// keep the envelope reachable for callers (and tests): error.context.crm = {code, message, details}
	error.context.crm = { code: body.code, message: body.message, details };
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
		(e.httpCode ? Number(e.httpCode) : undefined) ??
		e.cause?.response?.status ??
		e.response?.status ??
		e.cause?.status;
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
	else if (ArrayBuffer.isView(body))
		bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	else if (
		body &&
		typeof body === 'object' &&
		(body as IDataObject).type === 'Buffer' &&
		Array.isArray((body as IDataObject).data)
	) {
		bytes = Buffer.from((body as { data: number[] }).data);
	}
	if (!bytes) return body;
	try {
		return JSON.parse(bytes.toString('utf8')) as unknown;
	} catch {
		return body;
	}
}
