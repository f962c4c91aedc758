/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console */
// Record rules shared by every write path (single, batch, upsert, mass update, convert, bulk write):
// field validation by metadata type, mandatory and unique checks, lookups, system fields, and the
// per-item success/error envelopes of wire-contract §3.5 and §11.2–11.3.
import { errorItem } from './errors.ts';
import type { ErrorBody } from './errors.ts';
import type { FieldDef, ModuleDef } from './seed/modules.ts';
import type { Sandbox } from './sandbox.ts';
import type { Json, StoredRecord, UserRef } from './store.ts';
import { isDate, parseDateTime } from './time.ts';

export type ItemResult = { ok: true; body: Json; record: StoredRecord } | { ok: false; body: ErrorBody };

/** A hook that may refuse an update (blueprint, converted lead, locks). */
export type RecordGuard = (module: ModuleDef, existing: StoredRecord, changes: Json) => ErrorBody | undefined;

/** External-ID mode from `X-EXTERNAL: Module.Field[,Module.Field]` (§3.9). */
export interface ExternalSpec {
	/** field of the addressed module */
	field?: string;
	/** module → external field, for lookups and related records */
	byModule: Record<string, string>;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SYSTEM_FIELDS = new Set(['id', 'Created_Time', 'Modified_Time', 'Created_By', 'Modified_By', 'Tag']);

export function parseExternalHeader(sandbox: Sandbox, header: string | undefined, module?: ModuleDef): ExternalSpec | ErrorBody {
	const spec: ExternalSpec = { byModule: {} };
	if (!header) return spec;
	for (const pair of header.split(',').map((p) => p.trim()).filter(Boolean)) {
		const [modName, fieldName] = pair.split('.');
		const mod = modName ? sandbox.module(modName) : undefined;
		const field = mod?.fields.find((f) => f.api_name === fieldName);
		if (!mod || !field || !field.external) {
			return errorItem('INVALID_DATA', { api_name: fieldName ?? pair }, 'the given field is not an external field');
		}
		spec.byModule[mod.api_name] = field.api_name;
		if (module && mod.api_name === module.api_name && !spec.field) spec.field = field.api_name;
	}
	return spec;
}

/** Finds a record by id, or by external value in external mode. */
export function findRecord(sandbox: Sandbox, module: ModuleDef, key: string, external?: ExternalSpec): StoredRecord | undefined {
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
function normaliseValue(field: FieldDef, value: unknown, c: CheckContext): { value: unknown } | { error: ErrorBody } {
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
				return { error: fail('INVALID_DATA', { api_name: api, maximum_length: max }, c, 'invalid data') };
			}
			if (field.data_type === 'email' && text !== '' && !EMAIL_RE.test(text)) return bad('email');
			return { value: text };
		}
		case 'integer':
		case 'bigint': {
			const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
			if (typeof n !== 'number' || !Number.isInteger(n)) return bad(field.data_type === 'bigint' ? 'bigint' : 'integer');
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
			const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(';').map((s) => s.trim()) : undefined;
			if (!list || list.some((v) => typeof v !== 'string' || (field.pick_list_values && !field.pick_list_values.includes(v)))) {
				return bad('multiselectpicklist');
			}
			return { value: list };
		}
		case 'lookup':
			return normaliseLookup(field, value, c);
		case 'ownerlookup':
		case 'userlookup': {
			const id = typeof value === 'object' ? (value as Json).id : value;
			const user = c.sandbox.store.doc<{ id: string; full_name: string; email: string }>('users', String(id ?? ''));
			if (!user) return { error: fail('INVALID_DATA', { api_name: api, expected_data_type: 'lookup' }, c, 'the id given seems to be invalid') };
			return { value: { id: user.id, name: user.full_name, email: user.email } };
		}
		default:
			return { value };
	}
}

function normaliseLookup(field: FieldDef, value: unknown, c: CheckContext): { value: unknown } | { error: ErrorBody } {
	const invalid = () => ({
		error: fail('INVALID_DATA', { api_name: field.api_name, expected_data_type: 'lookup' }, c, 'the id given seems to be invalid'),
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
			const record = c.sandbox.store.findRecordBy(target.api_name, extField.api_name, obj[extField.api_name]);
			if (record) found = { module: target, record };
		}
	}
	if (!found) return invalid();
	return { value: { id: found.record.id, name: displayName(found.module, found.record) } };
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
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
		const clearedOnUpdate = mode === 'update' && field.api_name in changes && isEmpty(changes[field.api_name]);
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

function duplicateOf(sandbox: Sandbox, module: ModuleDef, changes: Json, selfId?: string): { field: string; id: string } | undefined {
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

function successItem(record: StoredRecord, action: 'insert' | 'update', message: string, duplicateField: string | null): Json {
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
export function createRecord(sandbox: Sandbox, module: ModuleDef, input: unknown, o: WriteOptions): ItemResult {
	const c: CheckContext = { sandbox, module, index: o.index, v: o.v, external: o.external };
	if (!input || typeof input !== 'object' || Array.isArray(input)) {
		return { ok: false, body: errorItem('INVALID_DATA', {}, 'invalid data') };
	}
	const checked = checkFields(c, input as Json, 'create');
	if ('error' in checked) return { ok: false, body: checked.error };
	const dup = duplicateOf(sandbox, module, checked.changes);
	if (dup) return { ok: false, body: fail('DUPLICATE_DATA', { api_name: dup.field, id: dup.id }, c) };
	const now = sandbox.now();
	const time = sandbox.formatTime(now);
	const owner = (checked.changes.Owner as Json | undefined) ?? { id: o.user.id, name: o.user.name, email: o.user.email };
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
	for (const [key, value] of Object.entries(input as Json)) if (key.startsWith('$')) record[key] = value;
	for (const field of module.fields) {
		if (field.data_type === 'autonumber') record[field.api_name] = nextAutoNumber(sandbox, module, field.api_name);
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
	o: WriteOptions & { guards?: RecordGuard[]; message?: string },
): ItemResult {
	const c: CheckContext = { sandbox, module, index: o.index, v: o.v, external: o.external };
	if (existing.$converted === true) {
		return { ok: false, body: errorItem('CONVERTED_RECORD', { id: existing.id }, 'can not update the converted record') };
	}
	const checked = checkFields(c, input, 'update');
	if ('error' in checked) return { ok: false, body: checked.error };
	for (const guard of o.guards ?? sandbox.recordGuards) {
		const refusal = guard(module, existing, checked.changes);
		if (refusal) return { ok: false, body: refusal };
	}
	const dup = duplicateOf(sandbox, module, checked.changes, existing.id);
	if (dup) return { ok: false, body: fail('DUPLICATE_DATA', { api_name: dup.field, id: dup.id }, c) };
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
	for (const [key, value] of Object.entries(input)) if (key.startsWith('$')) record[key] = value;
	sandbox.store.replaceRecord(module.api_name, record, now, changed, { v: o.v, related: o.related });
	return { ok: true, body: successItem(record, 'update', o.message ?? 'record updated', null), record };
}

export function deleteRecord(sandbox: Sandbox, module: ModuleDef, record: StoredRecord, o: WriteOptions): Json {
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
	return { code: 'SUCCESS', details: { id: record.id }, message: 'record deleted', status: 'success' };
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
