/* eslint-disable no-console */
// Bulk write (docs/protocol.md §1.2, §5.11, §8.2, §10.2, §10.3, §11.4): UploadFile (a zip holding one
// CSV, headers `feature: bulk-write` + `X-CRM-ORG`), CreateBulkWriteJob, GetBulkWriteJobDetails and
// DownloadBulkWriteResult. Rows go through the record service (createRecord / updateRecord, so
// validation, unique checks and change events are those of every other write path) in chunks of
// `bulkWriteChunk` rows (default 1,000), each chunk one store transaction, yielding between chunks.
// Knobs: `bulkWriteChunk`, `bulkWriteMaxRows` (25,000), `bulkWriteMaxZipBytes` (25 MB),
// `bulkWriteMaxColumns` (200), `bulkWriteConcurrency` (jobs not yet terminal, default 5 → 429),
// `bulkWriteChunkDelayMs` (pause between chunks, default 0).
import { HttpError } from '../errors.ts';
import { contentDisposition } from '../http.ts';
import { deliverCallback, parseCallback, saveJob, scheduleStep } from '../jobs.ts';
import type { Callback, JobBase } from '../jobs.ts';
import { csvLine, parseCsv } from '../csv.ts';
import { createRecord, updateRecord } from '../records.ts';
import type { ItemResult, WriteOptions } from '../records.ts';
import type { Ctx, Reply, Router, Version } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';
import type { FieldDef, ModuleDef } from '../seed/modules.ts';
import type { Json, StoredRecord } from '../store.ts';
import { isDate, parseDateTime } from '../time.ts';
import { looksLikeZip, readZip, writeZip } from '../zip.ts';
import { moduleScope } from './bulk-read.ts';

export const WRITE_JOBS = 'bulk_write_jobs';
const WRITE_FILES = 'bulk_write_files';
const WRITE_RESULTS = 'bulk_write_results';
const WRITE_OUTPUT = 'bulk_write_output';

type Status = 'ADDED' | 'IN PROGRESS' | 'COMPLETED' | 'FAILED' | 'SKIPPED';
type Operation = 'insert' | 'update' | 'upsert';

interface UploadedFile {
	id: string;
	/** name of the CSV inside the zip */
	name: string;
	/** zip, base64 */
	data: string;
	created_time: string;
	created_by: { id: string; name: string };
}

export interface FieldMapping {
	api_name: string;
	index: number;
	format: string | null;
	find_by: string | null;
	default_value: { value: unknown } | null;
}

interface WriteResource {
	type: 'data';
	module: string;
	module_id: string;
	file_id: string;
	find_by?: string;
	ignore_empty: boolean;
	field_mappings: FieldMapping[];
	status: Status;
	file: { status: Status; name: string; added_count: number; updated_count: number; skipped_count: number; total_count: number };
	/** rows processed so far and result chunks written */
	$processed: number;
	$chunks: number;
}

export interface BulkWriteJob extends JobBase {
	operation: Operation;
	status: Status;
	character_encoding: string;
	created_by: { id: string; name: string };
	created_time: string;
	v: Version;
	callback?: Callback;
	resource: WriteResource[];
	result?: { download_url: string };
}

function knob(sandbox: Sandbox, name: string, fallback: number): number {
	const value = sandbox.config.knobs[name];
	return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function orgXgid(sandbox: Sandbox): string {
	return String(sandbox.store.docs<{ xgid: string }>('org')[0]?.xgid ?? '');
}

/** Every error of the upload route in the combined bulk-write shape (§11.4). */
function bulkWriteShape(error: HttpError): HttpError {
	return new HttpError(error.code, error.details, error.message, error.status, {
		'x-error': error.code,
		http_status: String(error.status),
		ERROR_CODE: error.status,
		ERROR_MESSAGE: error.message,
	});
}

// ---- CSV cells → record input ---------------------------------------------------------------

const TOKEN_RE = /yyyy|MM|dd|HH|mm|ss|'[^']*'|./g;

/** Parses text with a date pattern of yyyy, MM, dd, HH, mm, ss and literals ('T' quoted or plain). */
function parsePattern(text: string, pattern: string): { y: number; M: number; d: number; H: number; m: number; s: number } | undefined {
	const parts: Record<string, number> = { yyyy: 0, MM: 1, dd: 1, HH: 0, mm: 0, ss: 0 };
	let pos = 0;
	for (const token of pattern.match(TOKEN_RE) ?? []) {
		if (token in parts) {
			const width = token === 'yyyy' ? 4 : 2;
			const digits = text.slice(pos, pos + width);
			if (!/^\d+$/.test(digits) || digits.length !== width) return undefined;
			parts[token] = Number(digits);
			pos += width;
		} else {
			const literal = token.startsWith("'") && token.length > 1 ? token.slice(1, -1) : token;
			if (text.slice(pos, pos + literal.length) !== literal) return undefined;
			pos += literal.length;
		}
	}
	if (pos !== text.length) return undefined;
	const { yyyy: y, MM: M, dd: d, HH: H, mm: m, ss: s } = parts;
	const date = new Date(Date.UTC(y, M - 1, d, H, m, s));
	if (date.getUTCMonth() !== M - 1 || date.getUTCDate() !== d || H > 23 || m > 59 || s > 59) return undefined;
	return { y, M, d, H, m, s };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

interface RowContext {
	sandbox: Sandbox;
	module: ModuleDef;
	fields: Map<string, FieldDef>;
}

/** Converts one CSV cell for a field (§4: Date `MM/dd/yyyy`, DateTime `MM/dd/yyyy HH:mm:ss` unless `format`). */
function cellValue(c: RowContext, mapping: FieldMapping, text: string): { value: unknown } | { error: string } {
	const field = c.fields.get(mapping.api_name);
	if (!field || mapping.api_name === 'id') return { value: text };
	const bad = { error: `INVALID_DATA-${mapping.api_name}` };
	switch (field.data_type) {
		case 'date': {
			const p = parsePattern(text, mapping.format ?? 'MM/dd/yyyy');
			if (p) return { value: `${pad(p.y, 4)}-${pad(p.M)}-${pad(p.d)}` };
			return !mapping.format && isDate(text) ? { value: text } : bad;
		}
		case 'datetime': {
			const p = parsePattern(text, mapping.format ?? 'MM/dd/yyyy HH:mm:ss');
			if (p) return { value: c.sandbox.formatTime(Date.UTC(p.y, p.M - 1, p.d, p.H, p.m, p.s)) };
			const ms = mapping.format ? undefined : parseDateTime(text);
			return ms === undefined ? bad : { value: c.sandbox.formatTime(ms) };
		}
		case 'boolean':
			if (/^(true|1|yes)$/i.test(text)) return { value: true };
			if (/^(false|0|no)$/i.test(text)) return { value: false };
			return bad;
		case 'lookup': {
			const target = field.lookup_module ? c.sandbox.module(field.lookup_module) : undefined;
			if (mapping.find_by && mapping.find_by !== 'id' && target) {
				const found = c.sandbox.store.findRecordByText(target.api_name, mapping.find_by, text);
				return found ? { value: { id: found.id } } : bad;
			}
			return { value: { id: text } };
		}
		case 'ownerlookup':
		case 'userlookup': {
			if (/^\d+$/.test(text)) return { value: { id: text } };
			const user = c.sandbox.store
				.docs<{ id: string; email: string }>('users')
				.find((u) => u.email.toLowerCase() === text.toLowerCase());
			return user ? { value: { id: user.id } } : bad;
		}
		default:
			return { value: text };
	}
}

/** A row's record input from the mappings; empty cells use default_value, are left out, or clear. */
function rowInput(c: RowContext, resource: WriteResource, row: string[], clearEmpty: boolean): { input: Json } | { error: string } {
	const input: Json = {};
	const errors: string[] = [];
	for (const mapping of resource.field_mappings) {
		let text = row[mapping.index] ?? '';
		if (text.trim() === '') {
			const fallback = mapping.default_value?.value;
			if (fallback !== undefined && fallback !== null && fallback !== '') text = String(fallback);
			else {
				if (clearEmpty && !resource.ignore_empty && mapping.api_name !== 'id') input[mapping.api_name] = null;
				continue;
			}
		}
		const converted = cellValue(c, mapping, text);
		if ('error' in converted) errors.push(converted.error);
		else input[mapping.api_name] = converted.value;
	}
	return errors.length ? { error: errors.join(':') } : { input };
}

/** `<CODE>-<column>` of a record-service error item. */
function errorText(result: ItemResult): string {
	if (result.ok) return '';
	const details = result.body.details ?? {};
	const column = details.api_name ?? details.param;
	return column ? `${result.body.code}-${String(column)}` : result.body.code;
}

function findExisting(sandbox: Sandbox, module: ModuleDef, findBy: string, key: unknown): StoredRecord | undefined {
	if (findBy === 'id') return sandbox.store.getRecord(module.api_name, String(key));
	return typeof key === 'string'
		? sandbox.store.findRecordByText(module.api_name, findBy, key)
		: sandbox.store.findRecordBy(module.api_name, findBy, key);
}

/** One row through the record service: [STATUS, RECORD_ID, ERRORS]. */
function writeRow(c: RowContext, job: BulkWriteJob, resource: WriteResource, row: string[], index: number): [string, string, string] {
	const options: WriteOptions = {
		v: job.v,
		user: { id: job.created_by.id, name: job.created_by.name },
		index,
	};
	const findBy = job.operation === 'insert' ? undefined : resource.find_by!;
	let existing: StoredRecord | undefined;
	if (findBy) {
		const keyMapping = resource.field_mappings.find((m) => m.api_name === findBy)!;
		const keyText = (row[keyMapping.index] ?? '').trim();
		if (!keyText) {
			if (job.operation === 'update') return ['SKIPPED', '', `MANDATORY_NOT_FOUND-${findBy}`];
		} else {
			const key = findBy === 'id' ? keyText : cellValue(c, keyMapping, keyText);
			if (typeof key === 'object' && 'error' in key) return ['SKIPPED', '', key.error];
			existing = findExisting(c.sandbox, c.module, findBy, typeof key === 'object' ? key.value : key);
		}
		if (!existing && job.operation === 'update') return ['SKIPPED', '', `RESOURCE_NOT_FOUND-${findBy}`];
	}
	const converted = rowInput(c, resource, row, !!existing);
	if ('error' in converted) return ['SKIPPED', existing?.id ?? '', converted.error];
	const input = converted.input;
	delete input.id;
	if (existing) {
		const result = updateRecord(c.sandbox, c.module, existing, input, options);
		return result.ok ? ['UPDATED', result.record.id, ''] : ['SKIPPED', existing.id, errorText(result)];
	}
	const result = createRecord(c.sandbox, c.module, input, options);
	return result.ok ? ['ADDED', result.record.id, ''] : ['SKIPPED', '', errorText(result)];
}

// ---- rendering ------------------------------------------------------------------------------

function moduleRef(resource: WriteResource, v: Version): unknown {
	return v === 'v2' ? resource.module : { api_name: resource.module, id: resource.module_id };
}

/** GetBulkWriteJobDetails (unwrapped, `id`); the callback body swaps `id` for `job_id`. */
export function writeJobJson(job: BulkWriteJob, v: Version, idKey: 'id' | 'job_id' = 'id'): Json {
	const out: Json = {
		[idKey]: job.id,
		operation: job.operation,
		status: job.status,
		character_encoding: job.character_encoding,
		created_by: job.created_by,
		created_time: job.created_time,
	};
	if (job.callback) out.callback = job.callback;
	out.resource = job.resource.map((r) => {
		const item: Json = {
			status: r.status,
			type: r.type,
			module: moduleRef(r, v),
			file_id: r.file_id,
			ignore_empty: r.ignore_empty,
			field_mappings: r.field_mappings,
			file: r.file,
		};
		if (r.find_by) item.find_by = r.find_by;
		return item;
	});
	if (job.result) out.result = job.result;
	return out;
}

// ---- request parsing ------------------------------------------------------------------------

function moduleOf(sandbox: Sandbox, v: Version, value: unknown): ModuleDef {
	let name: unknown;
	if (v === 'v2') {
		if (typeof value !== 'string') throw HttpError.invalidData({ api_name: 'module', expected_data_type: 'string' }, 'resource.module must be a String in v2');
		name = value;
	} else {
		name = value && typeof value === 'object' && !Array.isArray(value) ? (value as Json).api_name : undefined;
		if (typeof name !== 'string') {
			throw HttpError.invalidData({ api_name: 'module', expected_data_type: 'jsonobject' }, 'resource.module must be {"api_name": …} in v2.1');
		}
	}
	const module = sandbox.module(name as string);
	if (!module) throw new HttpError('MODULE_NOT_AVAILABLE', { api_name: 'module', value: name }, 'the module is not available');
	return module;
}

function peekModules(sandbox: Sandbox, ctx: Ctx): { operation: string; modules: ModuleDef[] } {
	try {
		const body = JSON.parse(ctx.rawBody.toString('utf8')) as Json;
		const resources = Array.isArray(body.resource) ? (body.resource as Json[]) : [];
		const modules = resources
			.map((r) => {
				const value = r?.module;
				const name = typeof value === 'string' ? value : value && typeof value === 'object' ? (value as Json).api_name : undefined;
				return typeof name === 'string' ? sandbox.module(name) : undefined;
			})
			.filter((m): m is ModuleDef => !!m);
		return { operation: String(body.operation ?? ''), modules };
	} catch {
		return { operation: '', modules: [] };
	}
}

/** Unique, external and duplicate-check fields (and `id`) can identify records for update/upsert. */
function findByFields(module: ModuleDef): Set<string> {
	const names = module.fields.filter((f) => f.unique || f.external).map((f) => f.api_name);
	return new Set(['id', ...names, ...module.duplicate_check_fields]);
}

const KNOWN_ENCODINGS: Record<string, BufferEncoding> = {
	'utf-8': 'utf8',
	utf8: 'utf8',
	'iso-8859-1': 'latin1',
	latin1: 'latin1',
	'windows-1252': 'latin1',
};

function csvOf(sandbox: Sandbox, file: UploadedFile, encoding: BufferEncoding): string[][] {
	const [entry] = readZip(Buffer.from(file.data, 'base64')).filter((e) => e.name.toLowerCase().endsWith('.csv'));
	return parseCsv(entry.data.toString(encoding));
}

export function registerBulkWrite(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	/** parsed CSVs of running jobs: `jobId:resourceIndex` → rows (header first); rebuilt when missing */
	const parsed = new Map<string, string[][]>();

	// ---- UploadFile -----------------------------------------------------------------------

	router.post(
		'/upload',
		(ctx): Reply => {
			try {
				const feature = ctx.header('feature');
				if (!feature) throw HttpError.mandatory('feature', 'required header not found');
				if (feature.toLowerCase() !== 'bulk-write') throw HttpError.invalidData({ api_name: 'feature' }, 'the feature header must be bulk-write');
				const org = ctx.header('x-crm-org');
				if (!org) throw HttpError.mandatory('X-CRM-ORG', 'required header not found');
				if (org !== orgXgid(sandbox)) throw HttpError.invalidData({ api_name: 'X-CRM-ORG' }, 'the organisation given is invalid');
				const files = ctx.files.filter((f) => f.field === 'file');
				if (files.length === 0) throw HttpError.invalidData({}, 'the request does not contain any file');
				if (files.length > 1) throw HttpError.limit(1, 'file', 'only one zip file per upload');
				const [upload] = files;
				const maxZip = knob(sandbox, 'bulkWriteMaxZipBytes', 25 * 1024 * 1024);
				if (upload.data.length > maxZip) throw new HttpError('FILE_TOO_LARGE', { limit: maxZip }, 'file size too large');
				if (!looksLikeZip(upload.data)) throw new HttpError('INVALID_FILE_FORMAT', {}, 'invalid file format, only zip is supported');
				let entries: ReturnType<typeof readZip> | undefined;
				let reason = '';
				try {
					entries = readZip(upload.data);
				} catch (error) {
					reason = (error as Error).message;
				}
				if (!entries) throw new HttpError('INVALID_FILE_FORMAT', { reason }, 'invalid file format, only zip is supported');
				const csvs = entries.filter((e) => e.name.toLowerCase().endsWith('.csv'));
				if (entries.length !== 1 || csvs.length !== 1) {
					throw new HttpError('FILE_NOT_SUPPORTED', { files: entries.map((e) => e.name) }, 'the zip must hold exactly one CSV file');
				}
				let rows: string[][] | undefined;
				try {
					rows = parseCsv(csvs[0].data.toString('utf8'));
				} catch (error) {
					reason = (error as Error).message;
				}
				if (!rows) throw new HttpError('INVALID_FORMAT', { reason }, 'the CSV file is malformed');
				if (rows.length === 0) throw new HttpError('INVALID_FORMAT', { reason: 'no header row' }, 'the CSV file has no header row');
				const maxColumns = knob(sandbox, 'bulkWriteMaxColumns', 200);
				if (rows[0].length > maxColumns) throw new HttpError('HEADER_LIMIT_EXCEEDED', { limit: maxColumns }, 'the header limit has been exceeded');
				const maxRows = knob(sandbox, 'bulkWriteMaxRows', 25_000);
				if (rows.length - 1 > maxRows) throw HttpError.limit(maxRows, 'file', 'the record limit of the file has been exceeded');
				const user = sandbox.user(ctx);
				const doc: UploadedFile = {
					id: store.nextId(),
					name: csvs[0].name.split('/').pop() || csvs[0].name,
					data: upload.data.toString('base64'),
					created_time: sandbox.formatTime(),
					created_by: { id: user.id, name: user.name },
				};
				store.putDoc(WRITE_FILES, doc.id, doc);
				return {
					body: {
						status: 'success',
						code: 'FILE_UPLOAD_SUCCESS',
						message: 'file uploaded.',
						details: { file_id: doc.id, created_time: doc.created_time, created_by: doc.created_by },
					},
				};
			} catch (error) {
				throw error instanceof HttpError ? bulkWriteShape(error) : error;
			}
		},
		// clients request both CRM.bulk.ALL and CRM.files.ALL; either is accepted (§2.3)
		{ scopes: [['CRM.bulk.ALL', 'CRM.bulk.CREATE', 'CRM.files.ALL', 'CRM.files.CREATE']] },
	);

	// ---- job processing (§8.2) ------------------------------------------------------------

	const rowsOf = (job: BulkWriteJob, index: number): string[][] => {
		const key = `${job.id}:${index}`;
		let rows = parsed.get(key);
		if (!rows) {
			const file = store.doc<UploadedFile>(WRITE_FILES, job.resource[index].file_id)!;
			rows = csvOf(sandbox, file, KNOWN_ENCODINGS[job.character_encoding.toLowerCase()] ?? 'utf8');
			parsed.set(key, rows);
		}
		return rows;
	};

	/** Builds the result zip: per resource its CSV with STATUS, RECORD_ID, ERRORS (§10.3). */
	const buildResult = (job: BulkWriteJob) => {
		const used = new Set<string>();
		const entries = job.resource.map((resource, index) => {
			const rows = rowsOf(job, index);
			const [header = [], ...data] = rows;
			const results: Array<[string, string, string]> = [];
			for (let chunk = 0; chunk < resource.$chunks; chunk++) {
				results.push(...(store.doc<{ rows: Array<[string, string, string]> }>(WRITE_RESULTS, `${job.id}:${index}:${chunk}`)?.rows ?? []));
			}
			const lines = [csvLine([...header, 'STATUS', 'RECORD_ID', 'ERRORS'])];
			data.forEach((row, i) => {
				const cells = header.map((_, c) => row[c] ?? '');
				lines.push(csvLine([...cells, ...(results[i] ?? ['UNPROCESSED', '', ''])]));
			});
			let name = store.doc<UploadedFile>(WRITE_FILES, resource.file_id)?.name ?? `${resource.module}.csv`;
			if (used.has(name)) name = `${index + 1}_${name}`;
			used.add(name);
			return { name, data: Buffer.from(lines.join('\r\n') + '\r\n', 'utf8') };
		});
		store.putDoc(WRITE_OUTPUT, job.id, { id: job.id, data: writeZip(entries, new Date(sandbox.now())).toString('base64') });
		job.result = { download_url: `${sandbox.config.publicOrigin}/v2/crm/${orgXgid(sandbox)}/bulk-write/${job.id}/${job.id}.zip` };
	};

	const finish = (job: BulkWriteJob, status: 'COMPLETED' | 'FAILED') => {
		store.transaction(() => {
			job.status = status;
			buildResult(job);
			saveJob(sandbox, WRITE_JOBS, job);
		});
		job.resource.forEach((_, i) => parsed.delete(`${job.id}:${i}`));
		if (job.callback) deliverCallback(sandbox, job.id, job.callback, writeJobJson(job, job.v, 'job_id'));
	};

	const setStatus = (resource: WriteResource, status: Status) => {
		resource.status = status;
		resource.file.status = status;
	};

	const step = (job: BulkWriteJob): void => {
		if (job.status === 'ADDED') {
			job.status = 'IN PROGRESS';
			saveJob(sandbox, WRITE_JOBS, job);
			scheduleStep(sandbox, WRITE_JOBS, job.id, step);
			return;
		}
		if (job.status !== 'IN PROGRESS') return;
		const index = job.resource.findIndex((r) => r.status === 'ADDED' || r.status === 'IN PROGRESS');
		if (index === -1) return finish(job, 'COMPLETED');
		const resource = job.resource[index];
		if (job.$fail) {
			setStatus(resource, 'FAILED');
			for (const later of job.resource.slice(index + 1)) setStatus(later, 'SKIPPED');
			return finish(job, 'FAILED');
		}
		let rows: string[][];
		try {
			rows = rowsOf(job, index);
		} catch (error) {
			console.error(`[sandbox] bulk write ${job.id}: file ${resource.file_id} unreadable:`, error);
			setStatus(resource, 'FAILED');
			for (const later of job.resource.slice(index + 1)) setStatus(later, 'SKIPPED');
			return finish(job, 'FAILED');
		}
		const total = Math.max(0, rows.length - 1);
		resource.file.total_count = total;
		if (resource.status === 'ADDED') {
			if (total === 0) {
				setStatus(resource, 'SKIPPED');
				saveJob(sandbox, WRITE_JOBS, job);
				scheduleStep(sandbox, WRITE_JOBS, job.id, step, 0);
				return;
			}
			setStatus(resource, 'IN PROGRESS');
		}
		const module = sandbox.module(resource.module)!;
		const c: RowContext = { sandbox, module, fields: new Map(module.fields.map((f) => [f.api_name, f])) };
		const size = Math.max(1, knob(sandbox, 'bulkWriteChunk', 1000));
		const start = resource.$processed;
		const end = Math.min(total, start + size);
		store.transaction(() => {
			const results: Array<[string, string, string]> = [];
			for (let i = start; i < end; i++) {
				const result = writeRow(c, job, resource, rows[i + 1], i);
				results.push(result);
				if (result[0] === 'ADDED') resource.file.added_count++;
				else if (result[0] === 'UPDATED') resource.file.updated_count++;
				else resource.file.skipped_count++;
			}
			store.putDoc(WRITE_RESULTS, `${job.id}:${index}:${resource.$chunks}`, { id: `${job.id}:${index}:${resource.$chunks}`, rows: results });
			resource.$chunks++;
			resource.$processed = end;
			if (end >= total) setStatus(resource, 'COMPLETED');
			saveJob(sandbox, WRITE_JOBS, job);
		});
		// the next chunk (or resource) after yielding to the event loop
		scheduleStep(sandbox, WRITE_JOBS, job.id, step, knob(sandbox, 'bulkWriteChunkDelayMs', 0));
	};

	for (const job of store.docs<BulkWriteJob>(WRITE_JOBS)) {
		if (job.status === 'ADDED' || job.status === 'IN PROGRESS') scheduleStep(sandbox, WRITE_JOBS, job.id, step);
	}

	// ---- CreateBulkWriteJob ---------------------------------------------------------------

	const parseResource = (ctx: Ctx, operation: Operation, value: unknown, index: number): WriteResource => {
		if (!value || typeof value !== 'object' || Array.isArray(value)) {
			throw HttpError.invalidData({ api_name: 'resource', index, expected_data_type: 'jsonobject' });
		}
		const r = value as Json;
		if (r.type === undefined) throw new HttpError('MISSING_REQUIRED_KEY', { api_name: 'type', index }, 'required key not found in request body');
		if (r.type !== 'data') throw HttpError.invalidData({ api_name: 'type', index }, 'resource type must be data');
		if (r.module === undefined) throw new HttpError('MISSING_REQUIRED_KEY', { api_name: 'module', index }, 'required key not found in request body');
		const module = moduleOf(sandbox, ctx.v, r.module);
		if (r.file_id === undefined || r.file_id === null || r.file_id === '') {
			throw new HttpError('MISSING_REQUIRED_KEY', { api_name: 'file_id', index }, 'required key not found in request body');
		}
		const fileId = String(r.file_id);
		const file = store.doc<UploadedFile>(WRITE_FILES, fileId);
		if (!file) throw new HttpError('INVALID_FILE_ID', { file_id: fileId }, 'the file id is invalid');
		const header = (csvOf(sandbox, file, 'utf8')[0] ?? []).map((h) => h.trim());
		const fields = new Map(module.fields.map((f) => [f.api_name, f]));

		let mappings: FieldMapping[];
		if (r.field_mappings !== undefined && r.field_mappings !== null) {
			if (!Array.isArray(r.field_mappings)) throw HttpError.invalidData({ api_name: 'field_mappings', expected_data_type: 'jsonarray' });
			const maxColumns = knob(sandbox, 'bulkWriteMaxColumns', 200);
			if (r.field_mappings.length > maxColumns) throw new HttpError('HEADER_LIMIT_EXCEEDED', { limit: maxColumns }, 'the header limit has been exceeded');
			mappings = (r.field_mappings as unknown[]).map((m) => {
				const mapping = (m && typeof m === 'object' ? m : {}) as Json;
				const apiName = mapping.api_name;
				if (typeof apiName !== 'string' || !apiName) {
					throw new HttpError('MISSING_REQUIRED_KEY', { api_name: 'field_mappings.api_name' }, 'required key not found in request body');
				}
				const field = apiName === 'id' ? undefined : fields.get(apiName);
				if (apiName !== 'id' && !field) throw new HttpError('INVALID_FIELD_NAME', { api_name: apiName }, 'the field name is invalid');
				if (field?.read_only) throw new HttpError('INVALID_FIELD', { api_name: apiName }, 'the field cannot be imported');
				if (mapping.index === undefined || mapping.index === null) {
					throw new HttpError('MISSING_REQUIRED_KEY', { api_name: 'field_mappings.index', field: apiName }, 'required key not found in request body');
				}
				const columnIndex = Number(mapping.index);
				if (!Number.isInteger(columnIndex) || columnIndex < 0 || columnIndex >= header.length) {
					throw new HttpError('COLUMN_INDEX_NOT_FOUND', { api_name: apiName, index: mapping.index }, 'the column index is not found');
				}
				let findBy: string | null = null;
				if (mapping.find_by !== undefined && mapping.find_by !== null && mapping.find_by !== '') {
					findBy = String(mapping.find_by);
					const target = field?.lookup_module ? sandbox.module(field.lookup_module) : undefined;
					if (!target || (findBy !== 'id' && !target.fields.some((f) => f.api_name === findBy))) {
						throw new HttpError('INVALID_FIELD', { api_name: apiName, find_by: findBy }, 'the find_by field of the lookup is invalid');
					}
				}
				let defaultValue: { value: unknown } | null = null;
				if (mapping.default_value !== undefined && mapping.default_value !== null) {
					const dv = mapping.default_value;
					if (typeof dv !== 'object' || Array.isArray(dv) || !('value' in (dv as Json))) {
						throw HttpError.invalidData({ api_name: 'default_value', expected_data_type: 'jsonobject' });
					}
					defaultValue = { value: (dv as Json).value };
				}
				const format = mapping.format === undefined || mapping.format === null || mapping.format === '' ? null : String(mapping.format);
				return { api_name: apiName, index: columnIndex, format, find_by: findBy, default_value: defaultValue };
			});
		} else {
			// without field_mappings, the CSV header names are field API names (read-only columns skipped)
			mappings = [];
			header.forEach((name, columnIndex) => {
				const apiName = /^id$/i.test(name) ? 'id' : name;
				const field = apiName === 'id' ? undefined : fields.get(apiName);
				if (apiName !== 'id' && !field) throw new HttpError('INVALID_FIELD_NAME', { api_name: name, index: columnIndex }, 'the field name is invalid');
				if (field?.read_only) return;
				mappings.push({ api_name: apiName, index: columnIndex, format: null, find_by: null, default_value: null });
			});
		}
		const seen = new Set<string>();
		for (const m of mappings) {
			if (seen.has(m.api_name)) throw new HttpError('DUPLICATE_DATA', { api_name: m.api_name }, 'the field is mapped more than once');
			seen.add(m.api_name);
		}
		let findBy: string | undefined;
		if (operation !== 'insert') {
			if (r.find_by === undefined || r.find_by === null || r.find_by === '') {
				throw new HttpError('MISSING_REQUIRED_KEY', { api_name: 'find_by' }, 'required key not found in request body');
			}
			findBy = String(r.find_by);
			if (!findByFields(module).has(findBy)) {
				throw new HttpError('INVALID_FIELD', { api_name: 'find_by', value: findBy }, 'the find_by field must be id or a unique field');
			}
			if (!seen.has(findBy)) throw new HttpError('MANDATORY_FIELDS_NOT_MAPPED', { api_name: findBy }, 'all mandatory fields are not mapped');
		}
		if (operation !== 'update') {
			const missing = module.fields.find((f) => f.mandatory && !f.read_only && !seen.has(f.api_name));
			if (missing) throw new HttpError('MANDATORY_FIELDS_NOT_MAPPED', { api_name: missing.api_name }, 'all mandatory fields are not mapped');
		}
		if (r.ignore_empty !== undefined && typeof r.ignore_empty !== 'boolean') {
			throw HttpError.invalidData({ api_name: 'ignore_empty', expected_data_type: 'boolean' });
		}
		return {
			type: 'data',
			module: module.api_name,
			module_id: String((module as ModuleDef & { id?: string }).id ?? ''),
			file_id: fileId,
			...(findBy ? { find_by: findBy } : {}),
			ignore_empty: r.ignore_empty === true,
			field_mappings: mappings,
			status: 'ADDED',
			file: { status: 'ADDED', name: file.name, added_count: 0, updated_count: 0, skipped_count: 0, total_count: 0 },
			$processed: 0,
			$chunks: 0,
		};
	};

	const BULK_CREATE = ['CRM.bulk.CREATE', 'CRM.bulk.ALL'];
	const moduleWrite = (module: ModuleDef, access: string) => {
		const sub = moduleScope(module);
		return ['CRM.modules.ALL', `CRM.modules.${sub}.ALL`, `CRM.modules.${sub}.WRITE`, `CRM.modules.${sub}.${access}`];
	};

	router.post(
		'/write',
		(ctx) => {
			const body = ctx.json();
			if (body.operation === undefined || body.operation === null) {
				throw new HttpError('MISSING_REQUIRED_KEY', { api_name: 'operation' }, 'required key not found in request body');
			}
			const operation = String(body.operation).toLowerCase() as Operation;
			if (!['insert', 'update', 'upsert'].includes(operation)) {
				throw HttpError.invalidData({ api_name: 'operation' }, 'operation must be insert, update or upsert');
			}
			if (body.resource === undefined || body.resource === null) {
				throw new HttpError('MISSING_REQUIRED_KEY', { api_name: 'resource' }, 'required key not found in request body');
			}
			if (!Array.isArray(body.resource) || body.resource.length === 0) {
				throw HttpError.invalidData({ api_name: 'resource', expected_data_type: 'jsonarray' });
			}
			const encoding = body.character_encoding === undefined || body.character_encoding === null ? 'UTF-8' : String(body.character_encoding);
			if (!KNOWN_ENCODINGS[encoding.toLowerCase()]) throw HttpError.invalidData({ api_name: 'character_encoding' }, 'the character encoding is not supported');
			const resources = (body.resource as unknown[]).map((r, i) => parseResource(ctx, operation, r, i));
			const callback = parseCallback(body.callback);
			const running = store.docs<BulkWriteJob>(WRITE_JOBS).filter((j) => j.status === 'ADDED' || j.status === 'IN PROGRESS').length;
			if (running >= knob(sandbox, 'bulkWriteConcurrency', 5)) throw new HttpError('TOO_MANY_REQUESTS');
			const user = sandbox.user(ctx);
			const job: BulkWriteJob = {
				id: store.nextId(),
				$step: 0,
				operation,
				status: 'ADDED',
				character_encoding: encoding,
				created_by: { id: user.id, name: user.name },
				created_time: sandbox.formatTime(),
				v: ctx.v,
				...(callback ? { callback } : {}),
				resource: resources,
			};
			saveJob(sandbox, WRITE_JOBS, job);
			scheduleStep(sandbox, WRITE_JOBS, job.id, step);
			return {
				status: 201,
				body: { status: 'success', code: 'SUCCESS', message: 'success', details: { id: job.id, created_by: job.created_by } },
			};
		},
		{
			root: 'bulk',
			scopes: (ctx) => {
				const { operation, modules } = peekModules(sandbox, ctx);
				const op = operation.toLowerCase();
				const rules = [BULK_CREATE];
				for (const module of modules) {
					if (op !== 'update') rules.push(moduleWrite(module, 'CREATE'));
					if (op !== 'insert') rules.push(moduleWrite(module, 'UPDATE'));
				}
				return rules;
			},
		},
	);

	const jobOf = (ctx: Ctx): BulkWriteJob => {
		const job = store.doc<BulkWriteJob>(WRITE_JOBS, ctx.params.jobId);
		if (!job) throw HttpError.notFound('RESOURCE_NOT_FOUND', { job_id: ctx.params.jobId }, 'the requested resource is not found');
		return job;
	};

	router.get('/write/:jobId', (ctx) => ({ body: writeJobJson(jobOf(ctx), ctx.v) }), { root: 'bulk', scopes: [BULK_CREATE.concat('CRM.bulk.READ')] });

	// ---- DownloadBulkWriteResult (absolute download_url, root /v2/crm) ---------------------

	router.get(
		'/:orgId/bulk-write/:jobId/:fileName',
		(ctx) => {
			const job = store.doc<BulkWriteJob>(WRITE_JOBS, ctx.params.jobId);
			const output = job?.result ? store.doc<{ data: string }>(WRITE_OUTPUT, job.id) : undefined;
			if (!job || !output || ctx.params.orgId !== orgXgid(sandbox) || ctx.params.fileName !== `${job.id}.zip`) {
				throw HttpError.notFound('RESOURCE_NOT_FOUND', { job_id: ctx.params.jobId }, 'the requested resource is not found');
			}
			return {
				raw: Buffer.from(output.data, 'base64'),
				headers: { 'Content-Type': 'application/zip', 'Content-Disposition': contentDisposition(`${job.id}.zip`) },
			};
		},
		{ root: 'download', scopes: [['CRM.bulk.ALL', 'CRM.bulk.READ', 'CRM.bulk.CREATE']] },
	);

	// test hooks (§8)
	const admin = { root: 'admin' as const, public: true };
	router.post(
		'/bulk/write/:jobId/advance',
		(ctx) => {
			step(jobOf(ctx));
			return { body: writeJobJson(jobOf(ctx), 'v2.1') };
		},
		admin,
	);
	router.post(
		'/bulk/write/:jobId/fail',
		(ctx) => {
			const job = jobOf(ctx);
			if (job.status === 'ADDED' || job.status === 'IN PROGRESS') {
				job.$fail = true;
				saveJob(sandbox, WRITE_JOBS, job);
				scheduleStep(sandbox, WRITE_JOBS, job.id, step);
			}
			return { body: writeJobJson(job, 'v2.1') };
		},
		admin,
	);
}
