// Record rules shared by every write path (single, batch, upsert, mass update, convert, bulk write):
// field validation by metadata type, mandatory and unique checks, lookups, system fields, and the
// per-item success/error envelopes of docs/protocol.md §3.5 and §11.2–11.3.
import { COMPARATORS, matchJsonCriteria } from './criteria.ts';
import type { JsonCriterion, MatchOptions } from './criteria.ts';
import { errorItem } from './errors.ts';
import type { ErrorBody } from './errors.ts';
import type { FieldDef, ModuleDef } from './catalogue/modules.ts';
import type { RecordGuard, Sandbox } from './types.ts';
import type { DeletedEntry, Json, StoredRecord, UserRef } from './store.ts';
import { parseSearchCriteria, searchOperators } from './search-criteria.ts';
import type { SearchCondition } from './search-criteria.ts';
import { isDate, parseDateTime } from './time.ts';

export type ItemResult =
	| { ok: true; body: Json; record: StoredRecord }
	| { ok: false; body: ErrorBody };

/** External-ID mode from `X-EXTERNAL: Module.Field[,Module.Field]` (§3.9). */
export interface ExternalSpec {
	/** field of the addressed module */
	field?: string;
	/** module → external field, for lookups and related records */
	byModule: Record<string, string>;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SYSTEM_FIELDS = new Set([
	'id',
	'Created_Time',
	'Modified_Time',
	'Created_By',
	'Modified_By',
	'Tag',
]);

/**
 * The only `$` key a client writes on a record: the parent module of a polymorphic parent (Notes'
 * `Parent_Id`, interface spec "Note"). Every other `$` key (`$converted`, `$approved`, `$editable`,
 * `$state`, …) is the service's own and is ignored on writes, as the real service ignores read-only
 * system keys.
 */
const CLIENT_DOLLAR_KEYS = new Set(['$se_module']);

/** Copies the client-writable `$` keys of an input onto a record. */
function copyClientDollarKeys(input: Json, record: Json): void {
	for (const [key, value] of Object.entries(input))
		if (CLIENT_DOLLAR_KEYS.has(key)) record[key] = value;
}

export function parseExternalHeader(
	sandbox: Sandbox,
	header: string | undefined,
	module?: ModuleDef,
): ExternalSpec | ErrorBody {
	const spec: ExternalSpec = { byModule: {} };
	if (!header) return spec;
	for (const pair of header
		.split(',')
		.map((p) => p.trim())
		.filter(Boolean)) {
		const [modName, fieldName] = pair.split('.');
		const mod = modName ? sandbox.module(modName) : undefined;
		const field = mod?.fields.find((f) => f.api_name === fieldName);
		if (!mod || !field || !field.external) {
			return errorItem(
				'INVALID_DATA',
				{ api_name: fieldName ?? pair },
				'the given field is not an external field',
			);
		}
		spec.byModule[mod.api_name] = field.api_name;
		if (module && mod.api_name === module.api_name && !spec.field) spec.field = field.api_name;
	}
	return spec;
}

/** Finds a record by id, or by external value in external mode. */
export function findRecord(
	sandbox: Sandbox,
	module: ModuleDef,
	key: string,
	external?: ExternalSpec,
): StoredRecord | undefined {
	const field = external?.field;
	if (field) return sandbox.store.findRecordBy(module.api_name, field, key);
	return sandbox.store.getRecord(module.api_name, key);
}

function displayName(module: ModuleDef, record: Json): string {
	const main = record[module.display_field];
	if (module.api_name === 'Leads' || module.api_name === 'Contacts') {
		return [record.First_Name, record.Last_Name].filter(Boolean).join(' ') || String(main ?? '');
	}
	return String(main ?? record.id ?? '');
}

export function recordName(module: ModuleDef, record: Json): string {
	return displayName(module, record);
}

interface CheckContext {
	sandbox: Sandbox;
	module: ModuleDef;
	index: number;
	v: string;
	external?: ExternalSpec;
}

function fail(code: string, details: Json, c: CheckContext, message?: string): ErrorBody {
	const withPath =
		c.v === 'v2.1' && typeof details.api_name === 'string' && !('json_path' in details)
			? { ...details, json_path: `$.data[${c.index}].${details.api_name}` }
			: details;
	return errorItem(code, withPath, message);
}

/** Validates and normalises one field value; returns the stored value or an error item. */
function normaliseValue(
	field: FieldDef,
	value: unknown,
	c: CheckContext,
): { value: unknown } | { error: ErrorBody } {
	const api = field.api_name;
	const bad = (expected: string, extra: Json = {}) => ({
		error: fail('INVALID_DATA', { api_name: api, expected_data_type: expected, ...extra }, c),
	});
	if (value === null) return { value: null };
	switch (field.data_type) {
		case 'text':
		case 'textarea':
		case 'phone':
		case 'website':
		case 'email':
		case 'autonumber': {
			if (typeof value !== 'string' && typeof value !== 'number') return bad(field.data_type);
			const text = String(value);
			const max = field.length ?? (field.data_type === 'textarea' ? 32000 : 255);
			if (text.length > max) {
				return {
					error: fail('INVALID_DATA', { api_name: api, maximum_length: max }, c, 'invalid data'),
				};
			}
			if (field.data_type === 'email' && text !== '' && !EMAIL_RE.test(text)) return bad('email');
			return { value: text };
		}
		case 'integer':
		case 'bigint': {
			const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			if (typeof n !== 'number' || !Number.isInteger(n))
				return bad(field.data_type === 'bigint' ? 'bigint' : 'integer');
			return { value: n };
		}
		case 'double':
		case 'currency':
		case 'percent': {
			const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			if (typeof n !== 'number' || !Number.isFinite(n)) return bad(field.data_type);
			return { value: n };
		}
		case 'boolean':
			if (typeof value !== 'boolean') return bad('boolean');
			return { value };
		case 'date':
			if (!isDate(value)) return bad('date');
			return { value };
		case 'datetime': {
			const ms = parseDateTime(value);
			if (ms === undefined) return bad('datetime');
			return { value: c.sandbox.formatTime(ms) };
		}
		case 'picklist': {
			if (typeof value !== 'string') return bad('picklist');
			if (field.pick_list_values && !field.pick_list_values.includes(value)) return bad('picklist');
			return { value };
		}
		case 'multiselectpicklist': {
			const list = Array.isArray(value)
				? value
				: typeof value === 'string'
					? value.split(';').map((s) => s.trim())
					: undefined;
			if (
				!list ||
				list.some(
					(v) =>
						typeof v !== 'string' ||
						(field.pick_list_values && !field.pick_list_values.includes(v)),
				)
			) {
				return bad('multiselectpicklist');
			}
			return { value: list };
		}
		case 'lookup':
			return normaliseLookup(field, value, c);
		case 'subform':
			return field.api_name === 'Product_Details' ? normaliseLineItems(field, value, c) : { value };
		case 'ownerlookup':
		case 'userlookup': {
			const id = typeof value === 'object' ? (value as Json).id : value;
			const user = c.sandbox.store.doc<{ id: string; full_name: string; email: string }>(
				'users',
				String(id ?? ''),
			);
			if (!user)
				return {
					error: fail(
						'INVALID_DATA',
						{ api_name: api, expected_data_type: 'lookup' },
						c,
						'the id given seems to be invalid',
					),
				};
			return { value: { id: user.id, name: user.full_name, email: user.email } };
		}
		default:
			return { value };
	}
}

function normaliseLookup(
	field: FieldDef,
	value: unknown,
	c: CheckContext,
): { value: unknown } | { error: ErrorBody } {
	const invalid = () => ({
		error: fail(
			'INVALID_DATA',
			{ api_name: field.api_name, expected_data_type: 'lookup' },
			c,
			'the id given seems to be invalid',
		),
	});
	const target = field.lookup_module ? c.sandbox.module(field.lookup_module) : undefined;
	let obj: Json;
	if (typeof value === 'string' || typeof value === 'number') obj = { id: String(value) };
	else if (value && typeof value === 'object' && !Array.isArray(value)) obj = value as Json;
	else return invalid();
	let found: { module: ModuleDef; record: StoredRecord } | undefined;
	if (obj.id !== undefined && obj.id !== null) {
		if (target) {
			const record = c.sandbox.store.getRecord(target.api_name, String(obj.id));
			if (record) found = { module: target, record };
		} else {
			const any = c.sandbox.store.getRecordAnyModule(String(obj.id));
			const mod = any ? c.sandbox.module(any.module) : undefined;
			if (any && mod) found = { module: mod, record: any.record };
		}
	} else if (target) {
		// lookup by external value: {"External_Account_ID": "ACC-42"} (§3.9)
		const extField = target.fields.find((f) => f.external && obj[f.api_name] !== undefined);
		if (extField) {
			const record = c.sandbox.store.findRecordBy(
				target.api_name,
				extField.api_name,
				obj[extField.api_name],
			);
			if (record) found = { module: target, record };
		}
	}
	if (!found) return invalid();
	return { value: { id: found.record.id, name: displayName(found.module, found.record) } };
}

/**
 * Inventory line items (interface spec InventoryLineItems): a list of `{product: {id}, quantity, …}`;
 * `product` must be a Products record and `quantity` a number. Stored with the product reference
 * resolved (`{id, name, Product_Code}`), `list_price` defaulting to the product's Unit_Price, and
 * `total` = quantity × list_price.
 */
function normaliseLineItems(
	field: FieldDef,
	value: unknown,
	c: CheckContext,
): { value: unknown } | { error: ErrorBody } {
	const api = field.api_name;
	if (!Array.isArray(value))
		return { error: fail('INVALID_DATA', { api_name: api, expected_data_type: 'jsonarray' }, c) };
	const lines: Json[] = [];
	for (const [i, raw] of value.entries()) {
		// details of a line-item key: its path inside the list (v2.1 only, as every json_path)
		const at = (key: string): Json =>
			c.v === 'v2.1'
				? { api_name: key, json_path: `$.data[${c.index}].${api}[${i}].${key}` }
				: { api_name: key };
		const item = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Json) : undefined;
		if (!item)
			return {
				error: fail('INVALID_DATA', { api_name: api, expected_data_type: 'jsonobject' }, c),
			};
		const ref = item.product;
		const productId = ref && typeof ref === 'object' ? (ref as Json).id : ref;
		if (productId === undefined || productId === null || productId === '') {
			return { error: fail('MANDATORY_NOT_FOUND', at('product'), c) };
		}
		const product = c.sandbox.store.getRecord('Products', String(productId));
		if (!product) {
			return { error: fail('INVALID_DATA', at('product'), c, 'the id given seems to be invalid') };
		}
		const quantity = item.quantity ?? 1;
		if (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity <= 0) {
			return {
				error: fail('INVALID_DATA', { ...at('quantity'), expected_data_type: 'double' }, c),
			};
		}
		const listPrice = item.list_price ?? product.Unit_Price ?? 0;
		if (typeof listPrice !== 'number' || !Number.isFinite(listPrice)) {
			return {
				error: fail('INVALID_DATA', { ...at('list_price'), expected_data_type: 'double' }, c),
			};
		}
		const line: Json = {
			...item,
			product: {
				id: product.id,
				name: product.Product_Name,
				Product_Code: product.Product_Code ?? null,
			},
			quantity,
			list_price: listPrice,
			total: Math.round(quantity * listPrice * 100) / 100,
		};
		lines.push(line);
	}
	return { value: lines };
}

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		value === '' ||
		(Array.isArray(value) && value.length === 0)
	);
}

/** Checks one input item's fields; returns the normalised changes or an error item. */
export function checkFields(
	c: CheckContext,
	input: Json,
	mode: 'create' | 'update',
): { changes: Json } | { error: ErrorBody } {
	const changes: Json = {};
	for (const [key, value] of Object.entries(input)) {
		if (key.startsWith('$') || SYSTEM_FIELDS.has(key)) continue;
		const field = c.module.fields.find((f) => f.api_name === key);
		if (!field) return { error: fail('INVALID_DATA', { api_name: key }, c, 'invalid field name') };
		if (field.read_only) continue;
		if (value === undefined) continue;
		const result = normaliseValue(field, value, c);
		if ('error' in result) return result;
		changes[key] = result.value;
	}
	for (const field of c.module.fields) {
		if (!field.mandatory || field.read_only) continue;
		const missingOnCreate = mode === 'create' && isEmpty(changes[field.api_name]);
		const clearedOnUpdate =
			mode === 'update' && field.api_name in changes && isEmpty(changes[field.api_name]);
		if (missingOnCreate || clearedOnUpdate) {
			return { error: fail('MANDATORY_NOT_FOUND', { api_name: field.api_name }, c) };
		}
	}
	return { changes };
}

/** Unique fields of a module (metadata `unique`). */
export function uniqueFields(module: ModuleDef): string[] {
	return module.fields.filter((f) => f.unique).map((f) => f.api_name);
}

function duplicateOf(
	sandbox: Sandbox,
	module: ModuleDef,
	changes: Json,
	selfId?: string,
): { field: string; id: string } | undefined {
	for (const api of uniqueFields(module)) {
		const value = changes[api];
		if (isEmpty(value)) continue;
		const other =
			typeof value === 'string'
				? sandbox.store.findRecordByText(module.api_name, api, value)
				: sandbox.store.findRecordBy(module.api_name, api, value);
		if (other && other.id !== selfId) return { field: api, id: other.id };
	}
	return undefined;
}

/** `{name, id}` of a user in a success item's details (§11.3). */
function userOf(value: unknown): unknown {
	if (!value || typeof value !== 'object') return value;
	const { name, id } = value as Json;
	return { name, id };
}

export function successItem(
	record: StoredRecord,
	action: 'insert' | 'update',
	message: string,
	duplicateField: string | null,
): Json {
	return {
		code: 'SUCCESS',
		duplicate_field: duplicateField,
		action,
		details: {
			Modified_Time: record.Modified_Time,
			Modified_By: userOf(record.Modified_By),
			Created_Time: record.Created_Time,
			id: record.id,
			Created_By: userOf(record.Created_By),
		},
		message,
		status: 'success',
	};
}

export interface WriteOptions {
	v: string;
	user: UserRef;
	index: number;
	external?: ExternalSpec;
	related?: boolean;
}

/** Creates one record (validation, unique check, system fields); never throws for item errors. */
export function createRecord(
	sandbox: Sandbox,
	module: ModuleDef,
	input: unknown,
	o: WriteOptions,
): ItemResult {
	const c: CheckContext = { sandbox, module, index: o.index, v: o.v, external: o.external };
	if (!input || typeof input !== 'object' || Array.isArray(input)) {
		return { ok: false, body: errorItem('INVALID_DATA', {}, 'invalid data') };
	}
	const checked = checkFields(c, input as Json, 'create');
	if ('error' in checked) return { ok: false, body: checked.error };
	const dup = duplicateOf(sandbox, module, checked.changes);
	if (dup)
		return { ok: false, body: fail('DUPLICATE_DATA', { api_name: dup.field, id: dup.id }, c) };
	const now = sandbox.now();
	const time = sandbox.formatTime(now);
	const owner = (checked.changes.Owner as Json | undefined) ?? {
		id: o.user.id,
		name: o.user.name,
		email: o.user.email,
	};
	const record: StoredRecord = {
		id: sandbox.store.nextId(),
		...checked.changes,
		Owner: owner,
		Created_By: { id: o.user.id, name: o.user.name, email: o.user.email },
		Modified_By: { id: o.user.id, name: o.user.name, email: o.user.email },
		Created_Time: time,
		Modified_Time: time,
		Tag: [],
	};
	copyClientDollarKeys(input as Json, record);
	for (const field of module.fields) {
		if (field.data_type === 'autonumber')
			record[field.api_name] = nextAutoNumber(sandbox, module, field.api_name);
	}
	sandbox.store.insertRecord(module.api_name, record, now, o.v);
	return { ok: true, body: successItem(record, 'insert', 'record added', null), record };
}

function nextAutoNumber(sandbox: Sandbox, module: ModuleDef, field: string): string {
	const key = `autonumber:${module.api_name}.${field}`;
	const next = Number(sandbox.store.getMeta(key) ?? 0) + 1;
	sandbox.store.setMeta(key, String(next));
	return String(next);
}

/** Updates one record with the given input (id already resolved). */
export function updateRecord(
	sandbox: Sandbox,
	module: ModuleDef,
	existing: StoredRecord,
	input: Json,
	o: WriteOptions & { guards?: RecordGuard[]; message?: string; duplicateField?: string | null },
): ItemResult {
	const c: CheckContext = { sandbox, module, index: o.index, v: o.v, external: o.external };
	if (existing.$converted === true) {
		return {
			ok: false,
			body: errorItem(
				'CONVERTED_RECORD',
				{ id: existing.id },
				'can not update the converted record',
			),
		};
	}
	const checked = checkFields(c, input, 'update');
	if ('error' in checked) return { ok: false, body: checked.error };
	for (const guard of o.guards ?? sandbox.recordGuards) {
		const refusal = guard(module, existing, checked.changes);
		if (refusal) return { ok: false, body: refusal };
	}
	const dup = duplicateOf(sandbox, module, checked.changes, existing.id);
	if (dup)
		return { ok: false, body: fail('DUPLICATE_DATA', { api_name: dup.field, id: dup.id }, c) };
	const changed: Json = {};
	for (const [key, value] of Object.entries(checked.changes)) {
		if (JSON.stringify(existing[key]) !== JSON.stringify(value)) changed[key] = value;
	}
	const now = sandbox.now();
	const record: StoredRecord = {
		...existing,
		...checked.changes,
		Modified_By: { id: o.user.id, name: o.user.name, email: o.user.email },
		Modified_Time: sandbox.formatTime(now),
	};
	copyClientDollarKeys(input, record);
	sandbox.store.replaceRecord(module.api_name, record, now, changed, {
		v: o.v,
		related: o.related,
	});
	return {
		ok: true,
		body: successItem(record, 'update', o.message ?? 'record updated', o.duplicateField ?? null),
		record,
	};
}

export function deleteRecord(
	sandbox: Sandbox,
	module: ModuleDef,
	record: StoredRecord,
	o: WriteOptions,
): Json {
	const now = sandbox.now();
	sandbox.store.deleteRecord(
		module.api_name,
		record.id,
		{
			id: record.id,
			module: module.api_name,
			display_name: displayName(module, record),
			type: 'recycle',
			deleted_time: now,
			deleted_by: o.user,
			created_by: record.Created_By as UserRef,
		},
		o.v,
	);
	return {
		code: 'SUCCESS',
		details: { id: record.id },
		message: 'record deleted',
		status: 'success',
	};
}

/** Picks the requested fields of a record (`fields` parameter); `id` is always kept. */
export function pickFields(record: Json, fields: string[] | undefined): Json {
	if (!fields || fields.length === 0) return record;
	const out: Json = { id: record.id };
	for (const f of fields) if (f in record) out[f] = record[f];
	return out;
}

/** HTTP status of a write response: all failed 400, else the full-success status (§3.8). */
export function writeStatus(items: Array<{ status?: unknown }>, successStatus: number): number {
	return items.length > 0 && items.every((i) => i.status === 'error') ? 400 : successStatus;
}

// ---- upsert (UpsertRecords, §5.1) ---------------------------------------------------------------

/** Fields an upsert matches on when the request names none: the module's duplicate-check and unique fields (§3.10). */
export function defaultDuplicateCheckFields(module: ModuleDef): string[] {
	return [...new Set([...module.duplicate_check_fields, ...uniqueFields(module)])];
}

/**
 * Inserts or updates one record: the first of `checkFields` whose value in the input matches an
 * existing record selects it for update (`duplicate_field` = that field), otherwise a create.
 */
export function upsertRecord(
	sandbox: Sandbox,
	module: ModuleDef,
	input: unknown,
	checkFields: string[],
	o: WriteOptions,
): ItemResult {
	if (!input || typeof input !== 'object' || Array.isArray(input)) {
		return { ok: false, body: errorItem('INVALID_DATA', {}, 'invalid data') };
	}
	const item = input as Json;
	for (const api of checkFields) {
		const value = item[api];
		if (isEmpty(value) || typeof value === 'object') continue;
		const existing =
			typeof value === 'string'
				? sandbox.store.findRecordByText(module.api_name, api, value)
				: sandbox.store.findRecordBy(module.api_name, api, value);
		if (!existing) continue;
		const changes = { ...item };
		delete changes.id;
		return updateRecord(sandbox, module, existing, changes, { ...o, duplicateField: api });
	}
	return createRecord(sandbox, module, item, o);
}

// ---- search criteria (§3.11) and JSON criteria (§3.12) ------------------------------------------

export type RecordPredicate = (record: Json) => boolean;

/** A search or criteria failure: the caller turns it into a 400 (INVALID_QUERY / LIMIT_EXCEEDED / INVALID_DATA). */
export class CriteriaError extends Error {
	readonly code: string;
	readonly details: Json;
	constructor(code: string, details: Json, message: string) {
		super(message);
		this.code = code;
		this.details = details;
	}
}

/** Field types that take the ordering operators of search strings (numbers and dates, §3.11). */
const ORDERED_TYPES = new Set([
	'integer',
	'bigint',
	'double',
	'currency',
	'percent',
	'date',
	'datetime',
]);

/** Comparable form of a stored value: numbers, epoch ms for DateTime, lower-case text otherwise. */
function comparable(field: FieldDef | undefined, value: unknown): string | number | undefined {
	if (value === undefined || value === null) return undefined;
	const type = field?.data_type;
	if (
		type === 'integer' ||
		type === 'bigint' ||
		type === 'double' ||
		type === 'currency' ||
		type === 'percent'
	) {
		const n = Number(value);
		return Number.isFinite(n) ? n : undefined;
	}
	if (type === 'datetime') return parseDateTime(value) ?? undefined;
	if (typeof value === 'object' && !Array.isArray(value)) {
		const obj = value as Json;
		return String(obj.name ?? obj.id ?? '').toLowerCase();
	}
	return String(value).toLowerCase();
}

/** All comparable forms of a stored value (lookups match by id or name; multi-selects by any entry). */
function comparables(field: FieldDef | undefined, value: unknown): Array<string | number> {
	if (Array.isArray(value))
		return value
			.map((v) => comparable(field, v))
			.filter((v): v is string | number => v !== undefined);
	if (value && typeof value === 'object') {
		const obj = value as Json;
		return [obj.id, obj.name]
			.filter((v) => v !== undefined && v !== null)
			.map((v) => String(v).toLowerCase());
	}
	const one = comparable(field, value);
	return one === undefined ? [] : [one];
}

/** Typed JSON criteria as a record predicate: the shared matcher over the comparable forms of the fields used. */
function comparablePredicate(
	used: Map<string, FieldDef>,
	criterion: JsonCriterion,
	options: MatchOptions,
): RecordPredicate {
	return (record) => {
		const values: Json = {};
		for (const [apiName, field] of used) values[apiName] = comparables(field, record[apiName]);
		return matchJsonCriteria(values, criterion, options);
	};
}

function invalidQuery(reason: string, extra: Json = {}): CriteriaError {
	return new CriteriaError('INVALID_QUERY', { reason, ...extra }, 'invalid query formed');
}

/** One search condition checked against the module (field, operator for its type, values) and typed. */
function typedSearchValues(
	module: ModuleDef,
	condition: SearchCondition,
	used: Map<string, FieldDef>,
): Array<string | number> {
	const { api_name: apiName, operator } = condition;
	const field = module.fields.find((f) => f.api_name === apiName);
	if (!field) throw invalidQuery('invalid field', { api_name: apiName });
	if (!searchOperators(ORDERED_TYPES.has(field.data_type)).includes(operator)) {
		throw invalidQuery('operator not supported for the field', { api_name: apiName, operator });
	}
	used.set(apiName, field);
	return condition.values.map((value) => {
		if (field.data_type === 'date' && !isDate(value))
			throw invalidQuery('invalid date value', { api_name: apiName });
		if (field.data_type === 'datetime') {
			const ms = parseDateTime(value);
			if (ms === undefined) throw invalidQuery('invalid datetime value', { api_name: apiName });
			return ms;
		}
		const c = comparable(field, value);
		if (c === undefined || (typeof c === 'number' && Number.isNaN(c)))
			throw invalidQuery('invalid value', { api_name: apiName });
		return c;
	});
}

/**
 * A SearchRecords / RecordCount `criteria` string as a record predicate: parsed into JSON criteria
 * (search-criteria.ts) and matched by the shared matcher with the values typed by field — text
 * compared exactly once lower-cased, an empty value a value (`typed`, criteria.ts).
 */
function searchCriteriaPredicate(module: ModuleDef, criteria: string): RecordPredicate {
	const used = new Map<string, FieldDef>();
	const tree = parseSearchCriteria(criteria, {
		typeCondition: (condition) => typedSearchValues(module, condition, used),
		fail: (problem) =>
			problem.reason === 'conditions'
				? new CriteriaError(
						'LIMIT_EXCEEDED',
						{ limit: problem.limit ?? null, api_name: 'criteria' },
						'criteria limit exceeded',
					)
				: invalidQuery(
						problem.message,
						problem.api_name === undefined ? {} : { api_name: problem.api_name },
					),
	});
	return comparablePredicate(used, tree, { typed: true });
}

const TEXTUAL = new Set([
	'text',
	'textarea',
	'email',
	'phone',
	'website',
	'picklist',
	'autonumber',
]);

/** The record predicate of `criteria` / `email` / `phone` / `word` (§3.11); undefined when none is given. */
export function searchPredicate(
	module: ModuleDef,
	query: { criteria?: string; email?: string; phone?: string; word?: string },
): RecordPredicate | undefined {
	const given = (['criteria', 'email', 'phone', 'word'] as const).filter(
		(k) => query[k] !== undefined,
	);
	if (given.length > 1) {
		throw new CriteriaError(
			'INVALID_QUERY',
			{ reason: 'only one of criteria, email, phone, word is allowed' },
			'invalid query formed',
		);
	}
	if (query.criteria !== undefined) return searchCriteriaPredicate(module, query.criteria);
	const fieldsOfType = (types: Set<string>) =>
		module.fields.filter((f) => types.has(f.data_type)).map((f) => f.api_name);
	if (query.email !== undefined) {
		const email = query.email.toLowerCase();
		const fields = fieldsOfType(new Set(['email']));
		return (r) =>
			fields.some((f) => typeof r[f] === 'string' && (r[f] as string).toLowerCase() === email);
	}
	if (query.phone !== undefined) {
		const digits = query.phone.replace(/\D/g, '');
		const fields = fieldsOfType(new Set(['phone']));
		return (r) =>
			digits.length > 0 &&
			fields.some(
				(f) => typeof r[f] === 'string' && (r[f] as string).replace(/\D/g, '').includes(digits),
			);
	}
	if (query.word !== undefined) {
		const word = query.word.toLowerCase();
		const fields = fieldsOfType(TEXTUAL);
		return (r) =>
			fields.some((f) => typeof r[f] === 'string' && (r[f] as string).toLowerCase().includes(word));
	}
	return undefined;
}

/**
 * Validates a JSON criterion (§3.12) against the module (INVALID_DATA on a bad shape, field, comparator or
 * value) and answers it in matcher form: fields by API name, comparators in lower case, group operators
 * explicit (`and` when absent), values in their comparable form (see `comparable`). Records the fields used.
 */
function typedJsonCriterion(
	module: ModuleDef,
	criterion: unknown,
	used: Map<string, FieldDef>,
): JsonCriterion {
	if (!criterion || typeof criterion !== 'object' || Array.isArray(criterion)) {
		throw new CriteriaError('INVALID_DATA', { api_name: 'criteria' }, 'invalid criteria');
	}
	const c = criterion as Json;
	if (Array.isArray(c.group)) {
		const op = String(c.group_operator ?? 'and').toLowerCase();
		if (op !== 'and' && op !== 'or')
			throw new CriteriaError(
				'INVALID_DATA',
				{ api_name: 'group_operator' },
				'invalid group operator',
			);
		return { group_operator: op, group: c.group.map((g) => typedJsonCriterion(module, g, used)) };
	}
	const rawField = c.field ?? c.api_name;
	const apiName =
		typeof rawField === 'object' && rawField
			? String((rawField as Json).api_name ?? '')
			: String(rawField ?? '');
	const field = module.fields.find((f) => f.api_name === apiName);
	if (!field)
		throw new CriteriaError(
			'INVALID_DATA',
			{ api_name: apiName || 'field' },
			'invalid field in criteria',
		);
	const comparator = String(c.comparator ?? '').toLowerCase();
	if (!(COMPARATORS as readonly string[]).includes(comparator)) {
		throw new CriteriaError(
			'INVALID_DATA',
			{ api_name: apiName, comparator },
			'invalid comparator',
		);
	}
	const list = Array.isArray(c.value) ? c.value : [c.value];
	const expected = list.map((v) => {
		const x = comparable(field, v);
		if (x === undefined)
			throw new CriteriaError('INVALID_DATA', { api_name: apiName }, 'invalid value in criteria');
		return x;
	});
	used.set(apiName, field);
	const listValued =
		comparator === 'in' ||
		comparator === 'not_in' ||
		comparator === 'between' ||
		comparator === 'not_between';
	return { field: apiName, comparator, value: listValued ? expected : expected[0] };
}

/**
 * A JSON criterion (§3.12) as a predicate: leaf `{field|api_name, comparator, value}` or `{group_operator, group}`.
 * Matching is the shared matcher's (criteria.ts) over the comparable forms of the record's values.
 */
export function jsonCriteriaPredicate(module: ModuleDef, criterion: unknown): RecordPredicate {
	const used = new Map<string, FieldDef>();
	return comparablePredicate(used, typedJsonCriterion(module, criterion, used), {});
}

// ---- territories on records (§5.1, v2.1) ---------------------------------------------------------

interface TerritoryRef {
	id: string;
	name: string;
	parent_id?: string | null;
}

/** The collection of the organisation's territories; groups/territories.ts seeds it and serves GetTerritories. */
export const TERRITORIES = 'territories';

/** The organisation's territories: the `territories` collection, read tolerantly. */
export function territories(sandbox: Sandbox): TerritoryRef[] {
	return sandbox.store.docs<Json>(TERRITORIES).map((d) => {
		const parent = d.parent_id ?? (d.reporting_to as Json | null | undefined)?.id ?? null;
		return {
			id: String(d.id),
			name: String(d.name ?? d.id),
			parent_id: parent === null ? null : String(parent),
		};
	});
}

/** A territory id and (with `includeChild`) every territory below it. */
export function territoryScope(sandbox: Sandbox, id: string, includeChild: boolean): Set<string> {
	const all = territories(sandbox);
	const scope = new Set([id]);
	if (!includeChild) return scope;
	let grew = true;
	while (grew) {
		grew = false;
		for (const t of all) {
			if (t.parent_id && scope.has(t.parent_id) && !scope.has(t.id)) {
				scope.add(t.id);
				grew = true;
			}
		}
	}
	return scope;
}

/** Territory ids assigned to a record (`Territories` list of `{id, Name, $assigned_by, $assigned_time}`). */
export function recordTerritoryIds(record: Json): string[] {
	return Array.isArray(record.Territories)
		? (record.Territories as Json[]).map((t) => String(t.id))
		: [];
}

/** Writes a record's territory list through the store (an update change event). */
export function setRecordTerritories(
	sandbox: Sandbox,
	module: ModuleDef,
	record: StoredRecord,
	list: Json[],
	o: WriteOptions,
): StoredRecord {
	const now = sandbox.now();
	const next: StoredRecord = {
		...record,
		Territories: list,
		Modified_By: { id: o.user.id, name: o.user.name, email: o.user.email },
		Modified_Time: sandbox.formatTime(now),
	};
	sandbox.store.replaceRecord(module.api_name, next, now, { Territories: list }, { v: o.v });
	return next;
}

// ---- deleted records (GetDeletedRecords) ---------------------------------------------------------

/** A DeletedRecord item as the wire shows it (deleted_time as DateTime, users as `{id, name}`). */
export function deletedJson(sandbox: Sandbox, entry: DeletedEntry): Json {
	const user = (u: UserRef | undefined) => (u ? { id: u.id, name: u.name } : null);
	return {
		created_by: user(entry.created_by),
		display_name: entry.display_name,
		id: entry.id,
		type: entry.type,
		deleted_time: sandbox.formatTime(entry.deleted_time),
		deleted_by: user(entry.deleted_by),
	};
}

/** Empties the recycle bin of a module (test hook): entries become `permanent`. Answers how many changed. */
export function purgeRecycleBin(sandbox: Sandbox, module: string, ids?: string[]): number {
	let changed = 0;
	const rows = sandbox.store.db
		.prepare('SELECT id, data FROM deleted WHERE module = ?')
		.all(module) as Array<{ id: string; data: string }>;
	for (const row of rows) {
		if (ids && !ids.includes(row.id)) continue;
		const entry = JSON.parse(row.data) as DeletedEntry;
		if (entry.type === 'permanent') continue;
		sandbox.store.db
			.prepare('UPDATE deleted SET data = ? WHERE module = ? AND id = ?')
			.run(JSON.stringify({ ...entry, type: 'permanent' }), module, row.id);
		changed++;
	}
	return changed;
}

// ---- write options (trigger, process, lar_id, wf_trigger) -----------------------------------------

export const TRIGGERS = ['workflow', 'approval', 'blueprint'];

/** One record write request's options, kept so tests and the README walkthrough can see what fired. */
export interface WriteLogEntry {
	id: string;
	operation: string;
	module: string;
	v: string;
	/** automation that fired: `trigger` absent = all, `[]` = none (§5.1) */
	fired: string[];
	trigger?: string[];
	process?: unknown[];
	lar_id?: string;
	wf_trigger?: string;
	duplicate_check_fields?: string[];
	ids: string[];
	at: string;
}

const WRITE_LOG = 'record_write_log';

export function logWrite(sandbox: Sandbox, entry: Omit<WriteLogEntry, 'id' | 'at'>): void {
	const id = sandbox.store.nextId();
	sandbox.store.putDoc(WRITE_LOG, id, { ...entry, id, at: sandbox.formatTime() });
}
