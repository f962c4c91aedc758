// Helpers shared by the bulk read operations (docs/protocol.md §5.11, §8.1, §10.1): the request
// checks, the job steps and the extraction of a page into a zipped CSV / ICS.
import type { FieldDef, ModuleDef } from '../../catalogue/modules.ts';
import type { JsonCriterion } from '../../criteria.ts';
import { COMPARATORS, matchJsonCriteria } from '../../criteria.ts';
import { csvLine } from '../../csv.ts';
import { HttpError } from '../../errors.ts';
import type { Callback, JobBase } from '../../jobs.ts';
import { deliverCallback, inProgress, saveJob } from '../../jobs.ts';
import type { Ctx, Version } from '../../router.ts';
import type { Json, StoredRecord } from '../../store.ts';
import { isDate, parseDateTime } from '../../time.ts';
import type { Sandbox } from '../../types.ts';
import { writeZip } from '../../zip.ts';
import { customViewMatches, findCustomView } from '../custom-views.ts';
import { knobOr, nameOf } from '../shared.ts';

export const READ_JOBS = 'bulk_read_jobs';
export const READ_FILES = 'bulk_read_files';

type ReadState = 'ADDED' | 'IN PROGRESS' | 'COMPLETED' | 'FAILURE';

export interface BulkReadJob extends JobBase {
	operation: 'read';
	state: ReadState;
	created_by: { id: string; name: string };
	created_time: string;
	file_type: 'csv' | 'ics';
	/** canonical module API name and id */
	module: string;
	module_id: string;
	/** version of the creating request (download_url, callback body) */
	v: Version;
	query: { fields?: string[]; criteria?: Json; cvid?: string; page: number };
	callback?: Callback;
	result?: {
		page: number;
		per_page: number;
		count: number;
		download_url: string;
		more_records: boolean;
	};
}

export const UNSUPPORTED_MODULES = new Set(['notes', 'attachments', 'emails']);

/** Module scope sub-area of §2.3 rule 4. */
export function moduleScope(module: ModuleDef): string {
	return module.generated_type === 'custom'
		? 'custom'
		: module.api_name.toLowerCase().replace(/_/g, '');
}

// ---- JSON criteria (§3.12) ------------------------------------------------------------------

const LIMITS = { conditions: 25, values: 50, joins: 2 };

const TEXT_TYPES = new Set(['text', 'textarea', 'email', 'phone', 'website', 'autonumber']);
const NUMBER_TYPES = new Set(['integer', 'bigint', 'double', 'currency', 'percent']);
const LOOKUP_TYPES = new Set(['lookup', 'ownerlookup', 'userlookup']);
const EQUALITY = ['equal', 'not_equal', 'in', 'not_in'];
const ORDERING = [
	...EQUALITY,
	'less_than',
	'less_equal',
	'greater_than',
	'greater_equal',
	'between',
	'not_between',
];
const TEXTUAL = [...EQUALITY, 'contains', 'not_contains', 'starts_with', 'ends_with'];

function comparatorsFor(field: FieldDef): string[] {
	if (field.api_name === 'id') return EQUALITY;
	if (TEXT_TYPES.has(field.data_type)) return TEXTUAL;
	if (
		NUMBER_TYPES.has(field.data_type) ||
		field.data_type === 'date' ||
		field.data_type === 'datetime'
	)
		return ORDERING;
	if (field.data_type === 'boolean') return ['equal', 'not_equal'];
	if (field.data_type === 'multiselectpicklist') return [...EQUALITY, 'contains', 'not_contains'];
	if (field.data_type === 'picklist') return TEXTUAL;
	if (LOOKUP_TYPES.has(field.data_type)) return EQUALITY;
	return [];
}

type Predicate = (record: StoredRecord) => boolean;

interface CompileState {
	sandbox: Sandbox;
	module: ModuleDef;
	conditions: number;
	joins: Set<string>;
	/** lookup targets read once per extraction: `Module:id` → record */
	cache: Map<string, StoredRecord | undefined>;
	/** how to read each criteria field (`Field`, `Id`, `Lookup.Field`) in its comparable form */
	reads: Map<string, (record: StoredRecord) => unknown>;
}

const criteriaError = (code: string, details: Json, message: string) =>
	new HttpError(code, details, message);

/** A comparable form of a value for the field type; undefined when the value does not fit. */
function normalise(field: FieldDef, value: unknown): unknown {
	if (value === null || value === undefined || value === '') return null;
	if (field.api_name === 'id' || LOOKUP_TYPES.has(field.data_type)) {
		const id = typeof value === 'object' ? (value as Json).id : value;
		return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
	}
	if (NUMBER_TYPES.has(field.data_type)) {
		const n =
			typeof value === 'number'
				? value
				: typeof value === 'string' && value.trim() !== ''
					? Number(value)
					: NaN;
		return Number.isFinite(n) ? n : undefined;
	}
	if (field.data_type === 'datetime') return parseDateTime(value);
	if (field.data_type === 'date') return isDate(value) ? value : undefined;
	if (field.data_type === 'boolean') {
		if (typeof value === 'boolean') return value;
		return value === 'true' ? true : value === 'false' ? false : undefined;
	}
	if (typeof value === 'string' || typeof value === 'number') return String(value).toLowerCase();
	return undefined;
}

function fieldOf(module: ModuleDef, name: string): FieldDef | undefined {
	return (
		module.fields.find((f) => f.api_name === name) ??
		(name === 'Id' ? module.fields.find((f) => f.api_name === 'id') : undefined)
	);
}

function compileLeaf(leaf: Json, s: CompileState): JsonCriterion {
	const rawField = leaf.api_name ?? leaf.field;
	const name = nameOf(rawField);
	if (typeof name !== 'string' || !name)
		throw criteriaError('INVALID_CRITERIA', { api_name: 'api_name' }, 'the criteria is invalid');
	s.conditions++;
	if (s.conditions > LIMITS.conditions) {
		throw criteriaError(
			'CRITERIA_LIMIT_EXCEEDED',
			{ info_message: `at most ${LIMITS.conditions} conditions` },
			'criteria limit exceeded',
		);
	}
	// `Lookup_Field.Target_Field` follows a lookup (a join)
	const [head, tail] = name.split('.', 2);
	const headField = fieldOf(s.module, head);
	if (!headField)
		throw criteriaError(
			'FIELD_IN_CRITERIA_NOT_AVAILABLE',
			{ api_name: name },
			'the field in the criteria is not available',
		);
	let field = headField;
	let read: (record: StoredRecord) => unknown = (r) => r[headField.api_name];
	if (tail !== undefined) {
		const target =
			headField.data_type === 'lookup' && headField.lookup_module
				? s.sandbox.module(headField.lookup_module)
				: undefined;
		const targetField = target ? fieldOf(target, tail) : undefined;
		if (!target || !targetField) {
			throw criteriaError(
				'FIELD_IN_CRITERIA_NOT_AVAILABLE',
				{ api_name: name },
				'the field in the criteria is not available',
			);
		}
		s.joins.add(headField.api_name);
		if (s.joins.size > LIMITS.joins) {
			throw criteriaError(
				'JOIN_LIMIT_EXCEEDED',
				{ api_name: name, info_message: `at most ${LIMITS.joins} joins` },
				'join limit exceeded',
			);
		}
		field = targetField;
		read = (r) => {
			const ref = r[headField.api_name] as Json | undefined;
			const id = ref && typeof ref === 'object' ? String(ref.id ?? '') : '';
			if (!id) return undefined;
			const key = `${target.api_name}:${id}`;
			if (!s.cache.has(key)) s.cache.set(key, s.sandbox.store.getRecord(target.api_name, id));
			return s.cache.get(key)?.[targetField.api_name];
		};
	}
	const comparator = leaf.comparator;
	if (typeof comparator !== 'string' || !(COMPARATORS as readonly string[]).includes(comparator)) {
		throw criteriaError(
			'INVALID_CRITERIA',
			{ api_name: name, comparator: comparator as string },
			'the criteria is invalid',
		);
	}
	if (!comparatorsFor(field).includes(comparator)) {
		throw criteriaError(
			'FIELD_AND_COMPARATOR_IN_CRITERIA_NOT_COMPATIBLE',
			{ api_name: name, comparator },
			'the comparator is not supported for the field',
		);
	}
	const value = leaf.value;
	const listComparator = comparator === 'in' || comparator === 'not_in';
	const rangeComparator = comparator === 'between' || comparator === 'not_between';
	const incompatible = () =>
		criteriaError(
			'COMPARATOR_AND_VALUE_IN_CRITERIA_NOT_COMPATIBLE',
			{ api_name: name, comparator },
			'the value is not compatible with the comparator',
		);
	if (listComparator || rangeComparator) {
		if (!Array.isArray(value)) throw incompatible();
		if (rangeComparator && value.length !== 2) throw incompatible();
		if (listComparator && value.length > LIMITS.values) {
			throw criteriaError(
				'VALUE_LIMIT_EXCEEDED_IN_CRITERIA',
				{ api_name: name, info_message: `at most ${LIMITS.values} values` },
				'value limit exceeded',
			);
		}
	} else if (Array.isArray(value) || (value !== null && typeof value === 'object')) {
		if (
			!(
				LOOKUP_TYPES.has(field.data_type) &&
				value &&
				typeof value === 'object' &&
				!Array.isArray(value)
			)
		)
			throw incompatible();
	}
	const wanted = (Array.isArray(value) ? value : [value]).map((v) => {
		const n = normalise(field, v);
		if (n === undefined) {
			throw criteriaError(
				'FIELD_AND_VALUE_IN_CRITERIA_NOT_COMPATIBLE',
				{ api_name: name, value: v as string, expected_data_type: field.data_type },
				'the value is not compatible with the field',
			);
		}
		return n;
	});
	const multi = field.data_type === 'multiselectpicklist';
	s.reads.set(name, (record) => {
		const raw = read(record);
		if (!multi) return normalise(field, raw);
		return Array.isArray(raw) ? raw.map((v) => normalise(field, v)) : [];
	});
	// a multi-select list contains a value when one of its entries is that value
	const matcherComparator =
		multi && comparator === 'contains'
			? 'equal'
			: multi && comparator === 'not_contains'
				? 'not_equal'
				: comparator;
	return {
		field: name,
		comparator: matcherComparator,
		value: listComparator || rangeComparator ? wanted : wanted[0],
	};
}

function compileNode(node: unknown, s: CompileState): JsonCriterion {
	if (!node || typeof node !== 'object' || Array.isArray(node)) {
		throw criteriaError('INVALID_CRITERIA', {}, 'the criteria is invalid');
	}
	const criterion = node as Json;
	if (criterion.group !== undefined) {
		if (!Array.isArray(criterion.group) || criterion.group.length === 0) {
			throw criteriaError('INVALID_CRITERIA', { api_name: 'group' }, 'the criteria is invalid');
		}
		const operator = String(criterion.group_operator ?? '').toLowerCase();
		if (operator !== 'and' && operator !== 'or') {
			if (criterion.group.length === 1 && criterion.group_operator === undefined)
				return compileNode(criterion.group[0], s);
			throw criteriaError(
				'GROUP_OPERATOR_NOT_SUPPORTED',
				{ api_name: 'group_operator' },
				'the group operator is not supported',
			);
		}
		return { group_operator: operator, group: criterion.group.map((c) => compileNode(c, s)) };
	}
	if (criterion.group_operator !== undefined) {
		throw criteriaError(
			'AMBIGUOUS_GROUP_IN_CRITERIA',
			{ api_name: 'group' },
			'the group in the criteria is ambiguous',
		);
	}
	return compileLeaf(criterion, s);
}

/** Validates JSON criteria against the module and answers a record predicate (throws the §3.12/§6 errors). */
export function compileCriteria(sandbox: Sandbox, module: ModuleDef, criteria: unknown): Predicate {
	if (criteria === undefined || criteria === null) return () => true;
	const s: CompileState = {
		sandbox,
		module,
		conditions: 0,
		joins: new Set(),
		cache: new Map(),
		reads: new Map(),
	};
	const typed = compileNode(criteria, s);
	return (record) => {
		const values: Json = {};
		for (const [name, read] of s.reads) values[name] = read(record);
		return matchJsonCriteria(values, typed);
	};
}

// ---- result files (§10.3) -------------------------------------------------------------------

/** A record value as CSV text: lookups as the referenced id, lists joined by `;`. */
function cellOf(value: unknown): unknown {
	if (value === null || value === undefined) return '';
	if (Array.isArray(value))
		return value
			.map((v) => (v && typeof v === 'object' ? ((v as Json).name ?? (v as Json).id) : v))
			.join(';');
	if (typeof value === 'object') return (value as Json).id ?? JSON.stringify(value);
	return value;
}

function icsDate(value: unknown): string | undefined {
	const ms = parseDateTime(value);
	return ms === undefined
		? undefined
		: new Date(ms)
				.toISOString()
				.replace(/[-:]/g, '')
				.replace(/\.\d{3}/, '');
}

function icsText(value: unknown): string {
	return String(value ?? '')
		.replace(/\\/g, '\\\\')
		.replace(/\n/g, '\\n')
		.replace(/([,;])/g, '\\$1');
}

function icsEvent(record: StoredRecord, stamp: string): string {
	const lines = ['BEGIN:VEVENT', `UID:${record.id}@crm-sandbox`, `DTSTAMP:${stamp}`];
	const start = icsDate(record.Start_DateTime);
	const end = icsDate(record.End_DateTime);
	if (start) lines.push(`DTSTART:${start}`);
	if (end) lines.push(`DTEND:${end}`);
	lines.push(`SUMMARY:${icsText(record.Event_Title)}`);
	if (record.Venue) lines.push(`LOCATION:${icsText(record.Venue)}`);
	if (record.Description) lines.push(`DESCRIPTION:${icsText(record.Description)}`);
	lines.push('END:VEVENT');
	return lines.join('\r\n');
}

/** Extracts the job's page: matching records after (page - 1) × pageSize, at most pageSize of them. */
function extract(
	sandbox: Sandbox,
	job: BulkReadJob,
	pageSize: number,
): { file: Buffer; count: number; more: boolean } {
	const module = sandbox.module(job.module)!;
	let match = compileCriteria(sandbox, module, job.query.criteria);
	const view = job.query.cvid ? findCustomView(sandbox, job.query.cvid) : undefined;
	if (view) {
		const own = match;
		match = (r) => customViewMatches(view, r, job.created_by.id) && own(r);
	}
	const fields =
		job.query.fields && job.query.fields.length > 0
			? job.query.fields
			: module.fields.filter((f) => f.api_name !== 'id').map((f) => f.api_name);
	const skip = (job.query.page - 1) * pageSize;
	const lines: string[] = [];
	let matched = 0;
	let more = false;
	const stamp = icsDate(sandbox.formatTime()) ?? '';
	for (const record of sandbox.store.iterateRecords(module.api_name)) {
		if (record.$converted === true || !match(record)) continue;
		matched++;
		if (matched <= skip) continue;
		if (lines.length === pageSize) {
			more = true;
			break;
		}
		lines.push(
			job.file_type === 'ics'
				? icsEvent(record, stamp)
				: csvLine([record.id, ...fields.map((f) => cellOf(record[f]))]),
		);
	}
	const text =
		job.file_type === 'ics'
			? [
					'BEGIN:VCALENDAR',
					'VERSION:2.0',
					'PRODID:-//CRM Sandbox//Bulk Read//EN',
					...lines,
					'END:VCALENDAR',
					'',
				].join('\r\n')
			: [csvLine(['Id', ...fields]), ...lines, ''].join('\r\n');
	const file = writeZip(
		[{ name: `${job.id}.${job.file_type}`, data: Buffer.from(text, 'utf8') }],
		new Date(sandbox.now()),
	);
	return { file, count: lines.length, more };
}

// ---- rendering ------------------------------------------------------------------------------

function moduleRef(job: BulkReadJob, v: Version): unknown {
	return v === 'v2' ? job.module : { api_name: job.module, id: job.module_id };
}

/** GetBulkReadJobDetails item (`id`, full query). */
export function readJobJson(job: BulkReadJob, v: Version): Json {
	const query: Json = { module: moduleRef(job, v), page: job.query.page };
	if (job.query.fields) query.fields = job.query.fields;
	if (job.query.criteria) query.criteria = job.query.criteria;
	if (job.query.cvid) query.cvid = job.query.cvid;
	const out: Json = {
		id: job.id,
		operation: 'read',
		state: job.state,
		query,
		created_by: job.created_by,
		created_time: job.created_time,
		file_type: job.file_type,
	};
	if (job.result) out.result = job.result;
	return out;
}

/** Callback body of §10.1: `job_id`, the module and page only. */
function callbackBody(job: BulkReadJob): Json {
	const body: Json = {
		job_id: job.id,
		operation: 'read',
		state: job.state,
		query: { module: moduleRef(job, job.v), page: job.query.page },
	};
	if (job.result) body.result = job.result;
	return body;
}

// ---- routes -------------------------------------------------------------------------------

/** The create body, with the §3.1 / §12 errors bulk read uses for unreadable bodies. */
export function readBody(ctx: Ctx): Json {
	const type = ctx.header('content-type');
	if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
		throw new HttpError(
			'MEDIA_TYPE_NOT_SUPPORTED',
			{},
			'the media type is not supported, use application/json',
		);
	}
	const text = ctx.rawBody.toString('utf8').trim();
	if (!text) throw new HttpError('REQUEST_BODY_IS_EMPTY', {}, 'the request body is empty');
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		value = undefined;
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw new HttpError('REQUEST_BODY_NOT_READABLE', {}, 'the request body is not readable');
	}
	return value as Json;
}

export function moduleName(v: Version, value: unknown): string {
	if (v === 'v2') {
		if (typeof value !== 'string')
			throw HttpError.invalidData(
				{ api_name: 'module', expected_data_type: 'string' },
				'query.module must be a String in v2',
			);
		return value;
	}
	const apiName =
		value && typeof value === 'object' && !Array.isArray(value)
			? (value as Json).api_name
			: undefined;
	if (typeof apiName !== 'string') {
		throw HttpError.invalidData(
			{ api_name: 'module', expected_data_type: 'jsonobject' },
			'query.module must be {"api_name": …} in v2.1',
		);
	}
	return apiName;
}

function peekModule(sandbox: Sandbox, ctx: Ctx): ModuleDef | undefined {
	try {
		const module = (JSON.parse(ctx.rawBody.toString('utf8')) as Json)?.query as Json | undefined;
		const value = module?.module;
		const name = nameOf(value);
		return typeof name === 'string' ? sandbox.module(name) : undefined;
	} catch {
		return undefined;
	}
}

const BULK_READ = ['CRM.bulk.READ', 'CRM.bulk.ALL'];
const moduleRead = (module: ModuleDef) => [
	'CRM.modules.ALL',
	`CRM.modules.${moduleScope(module)}.ALL`,
	`CRM.modules.${moduleScope(module)}.READ`,
];

function finish(sandbox: Sandbox, job: BulkReadJob): void {
	if (job.callback) deliverCallback(sandbox, job.id, job.callback, callbackBody(job));
}

/** Moves a job one state on: ADDED → IN PROGRESS → COMPLETED (extracting its page) | FAILURE. */
export function stepBulkRead(sandbox: Sandbox, job: BulkReadJob): void {
	const { store } = sandbox;
	if (!inProgress(sandbox, READ_JOBS, job, 'state', stepper(sandbox))) return;
	const fail = () => {
		job.state = 'FAILURE';
		saveJob(sandbox, READ_JOBS, job);
		finish(sandbox, job);
	};
	if (job.$fail) return fail();
	const pageSize = knobOr(sandbox.config.knobs.bulkReadPageSize, 200_000);
	let extracted: ReturnType<typeof extract>;
	try {
		extracted = extract(sandbox, job, pageSize);
	} catch (error) {
		console.error(`[sandbox] bulk read ${job.id} failed:`, error);
		return fail();
	}
	store.transaction(() => {
		store.putDoc(READ_FILES, job.id, {
			id: job.id,
			name: `${job.id}.zip`,
			data: extracted.file.toString('base64'),
		});
		job.state = 'COMPLETED';
		job.result = {
			page: job.query.page,
			per_page: pageSize,
			count: extracted.count,
			download_url: `/crm/bulk/${job.v}/read/${job.id}/result`,
			more_records: extracted.more,
		};
		saveJob(sandbox, READ_JOBS, job);
	});
	finish(sandbox, job);
}

/** The step function scheduleStep calls for a job of this sandbox. */
export const stepper = (sandbox: Sandbox) => (job: BulkReadJob) => stepBulkRead(sandbox, job);

/** The job of `:jobId`, or a thrown 404. */
export function jobOf(ctx: Ctx): BulkReadJob {
	const job = ctx.sandbox.store.doc<BulkReadJob>(READ_JOBS, ctx.params.jobId);
	if (!job)
		throw HttpError.notFound(
			'RESOURCE_NOT_FOUND',
			{ api_name: 'job_id', value: ctx.params.jobId },
			'the requested resource is not found',
		);
	return job;
}

/** Scopes of a job's calls: bulk read and read access to the job's module (§2.3). */
export function jobScopes(ctx: Ctx): string[][] {
	const job = ctx.sandbox.store.doc<BulkReadJob>(READ_JOBS, ctx.params.jobId);
	const module = job ? ctx.sandbox.module(job.module) : undefined;
	return module ? [BULK_READ, moduleRead(module)] : [BULK_READ];
}

/** Download times of the last minute per sandbox (`bulkReadDownloadsPerMinute`). */
const recentDownloads = new WeakMap<Sandbox, number[]>();

export function downloadsOf(sandbox: Sandbox): number[] {
	let downloads = recentDownloads.get(sandbox);
	if (!downloads) recentDownloads.set(sandbox, (downloads = []));
	return downloads;
}

/** CreateBulkReadJob's scopes: bulk read and read access to the module the body names (§2.3). */
export function createScopes(ctx: Ctx): string[][] {
	const module = peekModule(ctx.sandbox, ctx);
	return module ? [BULK_READ, moduleRead(module)] : [BULK_READ];
}
