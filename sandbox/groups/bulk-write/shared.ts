// Helpers of the bulk write operations (docs/protocol.md §5.11): uploaded files, jobs and their
// JSON, CSV cells to record values, and the job processing of §8.2 (chunks of `bulkWriteChunk` rows).
import type { FieldDef, ModuleDef } from '../../catalogue/modules.ts';
import { csvLine, parseCsv } from '../../csv.ts';
import { HttpError } from '../../errors.ts';
import { deliverCallback, inProgress, saveJob, scheduleStep } from '../../jobs.ts';
import type { Callback, JobBase } from '../../jobs.ts';
import { createRecord, updateRecord } from '../../records.ts';
import type { ItemResult, WriteOptions } from '../../records.ts';
import type { Json, StoredRecord } from '../../store.ts';
import { isDate, parseDateTime } from '../../time.ts';
import type { Ctx, Sandbox, Version } from '../../types.ts';
import { readZip, writeZip } from '../../zip.ts';
import { knobOr, nameOf } from '../shared.ts';

export const WRITE_JOBS = 'bulk_write_jobs';
export const WRITE_FILES = 'bulk_write_files';
const WRITE_RESULTS = 'bulk_write_results';
export const WRITE_OUTPUT = 'bulk_write_output';

export type Status = 'ADDED' | 'IN PROGRESS' | 'COMPLETED' | 'FAILED' | 'SKIPPED';
export type WriteOperation = 'insert' | 'update' | 'upsert';

export interface UploadedFile {
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

export interface WriteResource {
	type: 'data';
	module: string;
	module_id: string;
	file_id: string;
	find_by?: string;
	ignore_empty: boolean;
	field_mappings: FieldMapping[];
	status: Status;
	file: {
		status: Status;
		name: string;
		added_count: number;
		updated_count: number;
		skipped_count: number;
		total_count: number;
	};
	/** rows processed so far and result chunks written */
	$processed: number;
	$chunks: number;
}

export interface BulkWriteJob extends JobBase {
	operation: WriteOperation;
	status: Status;
	character_encoding: string;
	created_by: { id: string; name: string };
	created_time: string;
	v: Version;
	callback?: Callback;
	resource: WriteResource[];
	result?: { download_url: string };
}

export function orgXgid(sandbox: Sandbox): string {
	return String(sandbox.store.docs<{ xgid: string }>('org')[0]?.xgid ?? '');
}

/** Every error of the upload route in the combined bulk-write shape (§11.4). */
export function bulkWriteShape(error: HttpError): HttpError {
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
function parsePattern(
	text: string,
	pattern: string,
): { y: number; M: number; d: number; H: number; m: number; s: number } | undefined {
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
	if (date.getUTCMonth() !== M - 1 || date.getUTCDate() !== d || H > 23 || m > 59 || s > 59)
		return undefined;
	return { y, M, d, H, m, s };
}

export const pad = (n: number, w = 2) => String(n).padStart(w, '0');

interface RowContext {
	sandbox: Sandbox;
	module: ModuleDef;
	fields: Map<string, FieldDef>;
}

/** Converts one CSV cell for a field (§4: Date `MM/dd/yyyy`, DateTime `MM/dd/yyyy HH:mm:ss` unless `format`). */
function cellValue(
	c: RowContext,
	mapping: FieldMapping,
	text: string,
): { value: unknown } | { error: string } {
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
function rowInput(
	c: RowContext,
	resource: WriteResource,
	row: string[],
	clearEmpty: boolean,
): { input: Json } | { error: string } {
	const input: Json = {};
	const errors: string[] = [];
	for (const mapping of resource.field_mappings) {
		let text = row[mapping.index] ?? '';
		if (text.trim() === '') {
			const fallback = mapping.default_value?.value;
			if (fallback !== undefined && fallback !== null && fallback !== '') text = String(fallback);
			else {
				if (clearEmpty && !resource.ignore_empty && mapping.api_name !== 'id')
					input[mapping.api_name] = null;
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

function findExisting(
	sandbox: Sandbox,
	module: ModuleDef,
	findBy: string,
	key: unknown,
): StoredRecord | undefined {
	if (findBy === 'id') return sandbox.store.getRecord(module.api_name, String(key));
	return typeof key === 'string'
		? sandbox.store.findRecordByText(module.api_name, findBy, key)
		: sandbox.store.findRecordBy(module.api_name, findBy, key);
}

/** One row through the record service: [STATUS, RECORD_ID, ERRORS]. */
function writeRow(
	c: RowContext,
	job: BulkWriteJob,
	resource: WriteResource,
	row: string[],
	index: number,
): [string, string, string] {
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
			existing = findExisting(
				c.sandbox,
				c.module,
				findBy,
				typeof key === 'object' ? key.value : key,
			);
		}
		if (!existing && job.operation === 'update')
			return ['SKIPPED', '', `RESOURCE_NOT_FOUND-${findBy}`];
	}
	const converted = rowInput(c, resource, row, !!existing);
	if ('error' in converted) return ['SKIPPED', existing?.id ?? '', converted.error];
	const input = converted.input;
	delete input.id;
	if (existing) {
		const result = updateRecord(c.sandbox, c.module, existing, input, options);
		return result.ok
			? ['UPDATED', result.record.id, '']
			: ['SKIPPED', existing.id, errorText(result)];
	}
	const result = createRecord(c.sandbox, c.module, input, options);
	return result.ok ? ['ADDED', result.record.id, ''] : ['SKIPPED', '', errorText(result)];
}

// ---- rendering ------------------------------------------------------------------------------

export function moduleRef(resource: WriteResource, v: Version): unknown {
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

export function moduleOf(sandbox: Sandbox, v: Version, value: unknown): ModuleDef {
	let name: unknown;
	if (v === 'v2') {
		if (typeof value !== 'string')
			throw HttpError.invalidData(
				{ api_name: 'module', expected_data_type: 'string' },
				'resource.module must be a String in v2',
			);
		name = value;
	} else {
		name =
			value && typeof value === 'object' && !Array.isArray(value)
				? (value as Json).api_name
				: undefined;
		if (typeof name !== 'string') {
			throw HttpError.invalidData(
				{ api_name: 'module', expected_data_type: 'jsonobject' },
				'resource.module must be {"api_name": …} in v2.1',
			);
		}
	}
	const module = sandbox.module(name as string);
	if (!module)
		throw new HttpError(
			'MODULE_NOT_AVAILABLE',
			{ api_name: 'module', value: name },
			'the module is not available',
		);
	return module;
}

export function peekModules(
	sandbox: Sandbox,
	ctx: Ctx,
): { operation: string; modules: ModuleDef[] } {
	try {
		const body = JSON.parse(ctx.rawBody.toString('utf8')) as Json;
		const resources = Array.isArray(body.resource) ? (body.resource as Json[]) : [];
		const modules = resources
			.map((r) => {
				const value = r?.module;
				const name = nameOf(value);
				return typeof name === 'string' ? sandbox.module(name) : undefined;
			})
			.filter((m): m is ModuleDef => !!m);
		return { operation: String(body.operation ?? ''), modules };
	} catch {
		return { operation: '', modules: [] };
	}
}

/** Unique, external and duplicate-check fields (and `id`) can identify records for update/upsert. */
export function findByFields(module: ModuleDef): Set<string> {
	const names = module.fields.filter((f) => f.unique || f.external).map((f) => f.api_name);
	return new Set(['id', ...names, ...module.duplicate_check_fields]);
}

export const KNOWN_ENCODINGS: Record<string, BufferEncoding> = {
	'utf-8': 'utf8',
	utf8: 'utf8',
	'iso-8859-1': 'latin1',
	latin1: 'latin1',
	'windows-1252': 'latin1',
};

export function csvOf(sandbox: Sandbox, file: UploadedFile, encoding: BufferEncoding): string[][] {
	const [entry] = readZip(Buffer.from(file.data, 'base64')).filter((e) =>
		e.name.toLowerCase().endsWith('.csv'),
	);
	return parseCsv(entry.data.toString(encoding));
}

// ---- job processing (§8.2) ------------------------------------------------------------

/** parsed CSVs of running jobs, per sandbox: `jobId:resourceIndex` → rows (header first); rebuilt when missing */
const parsedCsvs = new WeakMap<Sandbox, Map<string, string[][]>>();

function parsedOf(sandbox: Sandbox): Map<string, string[][]> {
	let parsed = parsedCsvs.get(sandbox);
	if (!parsed) parsedCsvs.set(sandbox, (parsed = new Map()));
	return parsed;
}

/** The step function scheduleStep calls for a job of this sandbox. */
export function stepper(sandbox: Sandbox): (job: BulkWriteJob) => void {
	return (job) => stepBulkWrite(sandbox, job);
}

function rowsOf(sandbox: Sandbox, job: BulkWriteJob, index: number): string[][] {
	const { store } = sandbox;
	const key = `${job.id}:${index}`;
	let rows = parsedOf(sandbox).get(key);
	if (!rows) {
		const file = store.doc<UploadedFile>(WRITE_FILES, job.resource[index].file_id)!;
		rows = csvOf(sandbox, file, KNOWN_ENCODINGS[job.character_encoding.toLowerCase()] ?? 'utf8');
		parsedOf(sandbox).set(key, rows);
	}
	return rows;
}

/** Builds the result zip: per resource its CSV with STATUS, RECORD_ID, ERRORS (§10.3). */
function buildResult(sandbox: Sandbox, job: BulkWriteJob): void {
	const { store } = sandbox;
	const used = new Set<string>();
	const entries = job.resource.map((resource, index) => {
		const rows = rowsOf(sandbox, job, index);
		const [header = [], ...data] = rows;
		const results: Array<[string, string, string]> = [];
		for (let chunk = 0; chunk < resource.$chunks; chunk++) {
			results.push(
				...(store.doc<{ rows: Array<[string, string, string]> }>(
					WRITE_RESULTS,
					`${job.id}:${index}:${chunk}`,
				)?.rows ?? []),
			);
		}
		const lines = [csvLine([...header, 'STATUS', 'RECORD_ID', 'ERRORS'])];
		data.forEach((row, i) => {
			const cells = header.map((_, c) => row[c] ?? '');
			lines.push(csvLine([...cells, ...(results[i] ?? ['UNPROCESSED', '', ''])]));
		});
		let name =
			store.doc<UploadedFile>(WRITE_FILES, resource.file_id)?.name ?? `${resource.module}.csv`;
		if (used.has(name)) name = `${index + 1}_${name}`;
		used.add(name);
		return { name, data: Buffer.from(lines.join('\r\n') + '\r\n', 'utf8') };
	});
	store.putDoc(WRITE_OUTPUT, job.id, {
		id: job.id,
		data: writeZip(entries, new Date(sandbox.now())).toString('base64'),
	});
	job.result = {
		download_url: `${sandbox.config.publicOrigin}/v2/crm/${orgXgid(sandbox)}/bulk-write/${job.id}/${job.id}.zip`,
	};
}

function finish(sandbox: Sandbox, job: BulkWriteJob, status: 'COMPLETED' | 'FAILED'): void {
	sandbox.store.transaction(() => {
		job.status = status;
		buildResult(sandbox, job);
		saveJob(sandbox, WRITE_JOBS, job);
	});
	job.resource.forEach((_, i) => parsedOf(sandbox).delete(`${job.id}:${i}`));
	if (job.callback)
		deliverCallback(sandbox, job.id, job.callback, writeJobJson(job, job.v, 'job_id'));
}

function setStatus(resource: WriteResource, status: Status): void {
	resource.status = status;
	resource.file.status = status;
}

export function stepBulkWrite(sandbox: Sandbox, job: BulkWriteJob): void {
	const { store } = sandbox;
	if (!inProgress(sandbox, WRITE_JOBS, job, 'status', stepper(sandbox))) return;
	const index = job.resource.findIndex((r) => r.status === 'ADDED' || r.status === 'IN PROGRESS');
	if (index === -1) return finish(sandbox, job, 'COMPLETED');
	const resource = job.resource[index];
	const fail = () => {
		setStatus(resource, 'FAILED');
		for (const later of job.resource.slice(index + 1)) setStatus(later, 'SKIPPED');
		finish(sandbox, job, 'FAILED');
	};
	if (job.$fail) return fail();
	let rows: string[][];
	try {
		rows = rowsOf(sandbox, job, index);
	} catch (error) {
		console.error(`[sandbox] bulk write ${job.id}: file ${resource.file_id} unreadable:`, error);
		return fail();
	}
	const total = Math.max(0, rows.length - 1);
	resource.file.total_count = total;
	if (resource.status === 'ADDED') {
		if (total === 0) {
			setStatus(resource, 'SKIPPED');
			saveJob(sandbox, WRITE_JOBS, job);
			scheduleStep(sandbox, WRITE_JOBS, job.id, stepper(sandbox), 0);
			return;
		}
		setStatus(resource, 'IN PROGRESS');
	}
	const module = sandbox.module(resource.module)!;
	const c: RowContext = {
		sandbox,
		module,
		fields: new Map(module.fields.map((f) => [f.api_name, f])),
	};
	const size = Math.max(1, knobOr(sandbox.config.knobs.bulkWriteChunk, 1000));
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
		store.putDoc(WRITE_RESULTS, `${job.id}:${index}:${resource.$chunks}`, {
			id: `${job.id}:${index}:${resource.$chunks}`,
			rows: results,
		});
		resource.$chunks++;
		resource.$processed = end;
		if (end >= total) setStatus(resource, 'COMPLETED');
		saveJob(sandbox, WRITE_JOBS, job);
	});
	// the next chunk (or resource) after yielding to the event loop
	scheduleStep(
		sandbox,
		WRITE_JOBS,
		job.id,
		stepper(sandbox),
		knobOr(sandbox.config.knobs.bulkWriteChunkDelayMs, 0),
	);
}

/** Picks up the jobs a previous run left unfinished (file-backed store). */
export function resumeBulkWrites(sandbox: Sandbox): void {
	for (const job of sandbox.store.docs<BulkWriteJob>(WRITE_JOBS)) {
		if (job.status === 'ADDED' || job.status === 'IN PROGRESS')
			scheduleStep(sandbox, WRITE_JOBS, job.id, stepper(sandbox));
	}
}

export const BULK_CREATE = ['CRM.bulk.CREATE', 'CRM.bulk.ALL'];

/** The job `:jobId` addresses; 404 RESOURCE_NOT_FOUND when unknown. */
export function jobOf(ctx: Ctx): BulkWriteJob {
	const job = ctx.sandbox.store.doc<BulkWriteJob>(WRITE_JOBS, ctx.params.jobId);
	if (!job)
		throw HttpError.notFound(
			'RESOURCE_NOT_FOUND',
			{ job_id: ctx.params.jobId },
			'the requested resource is not found',
		);
	return job;
}
