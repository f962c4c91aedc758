/* eslint-disable @n8n/community-nodes/require-node-api-error */
// Records (docs/protocol.md §5.1): GetRecords, GetRecord(+UsingExternalID), CreateRecords,
// UpdateRecords, UpdateRecord(+UsingExternalID), UpsertRecords, DeleteRecords,
// DeleteRecord(+UsingExternalID), SearchRecords, GetDeletedRecords, RecordCount, GetPhoto,
// UploadPhoto, DeletePhoto, MassUpdate, GetMassUpdateStatus, ConvertLead and the four territory
// assignment operations. Test hooks: POST /__sandbox/mass_update/advance, POST /__sandbox/records/purge.
import { HttpError, errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import { contentDisposition } from '../http.ts';
import {
	CriteriaError,
	TRIGGERS,
	createRecord,
	defaultDuplicateCheckFields,
	deleteRecord,
	deletedJson,
	findRecord,
	jsonCriteriaPredicate,
	logWrite,
	parseExternalHeader,
	pickFields,
	purgeRecycleBin,
	recordTerritoryIds,
	searchPredicate,
	setRecordTerritories,
	territories,
	territoryScope,
	updateRecord,
	upsertRecord,
	writeStatus,
} from '../records.ts';
import type { ExternalSpec, ItemResult, RecordPredicate, WriteOptions } from '../records.ts';
import type { Ctx, Router } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';
import type { ModuleDef } from '../seed/modules.ts';
import type { Json, StoredRecord } from '../store.ts';
import { parseDateTime } from '../time.ts';
import { idsParam, ifModifiedSince, pagedReply, pageOf, paging, requiredQuery, wrapperList } from '../wire.ts';

/** Record operations: CRM.modules.ALL or CRM.modules.{mod}.{ACCESS} (§2.3). */
export const RECORD_SCOPES = [['CRM.modules.{mod}.{ACCESS}']];

export const RECORD_WRITE_MAX = 100;

/** X-EXTERNAL of the request, or a thrown INVALID_DATA. */
export function externalOf(ctx: Ctx): ExternalSpec {
	const spec = parseExternalHeader(ctx.sandbox, ctx.header('x-external'), ctx.module);
	if ('code' in spec) throw new HttpError(spec.code, spec.details, spec.message);
	return spec;
}

export function writeOptions(ctx: Ctx, index: number, external?: ExternalSpec): WriteOptions {
	return { v: ctx.v, user: ctx.sandbox.user(ctx), index, external };
}

function fieldsParam(ctx: Ctx): string[] | undefined {
	const fields = ctx.list('fields');
	if (fields.length === 0) return undefined;
	const known = new Set(ctx.module!.fields.map((f) => f.api_name));
	const unknown = fields.find((f) => !known.has(f));
	if (unknown) throw HttpError.invalidData({ api_name: unknown, [ctx.v === 'v2.1' ? 'param_name' : 'param']: 'fields' }, 'invalid field name');
	return fields;
}

/** `converted` / `approved` tri-state filters (§3.2); converted leads are hidden by default. */
function visible(ctx: Ctx, record: Json): boolean {
	const converted = ctx.q('converted') ?? 'false';
	const isConverted = record.$converted === true;
	if (converted === 'false' && isConverted) return false;
	if (converted === 'true' && !isConverted) return false;
	return ctx.q('approved') !== 'false';
}

/** The record addressed by `:id` (an id, or an external value under X-EXTERNAL). */
function addressed(ctx: Ctx): { external: ExternalSpec; key: string } {
	const external = externalOf(ctx);
	if (ctx.header('x-external') && !external.field) {
		throw HttpError.invalidData({ api_name: 'X-EXTERNAL' }, 'the external field does not belong to the module');
	}
	return { external, key: ctx.params.id };
}

const paramKey = (ctx: Ctx): string => (ctx.v === 'v2.1' ? 'param_name' : 'param');

/** A CriteriaError from the record service as the 400 it stands for. */
function criteriaHttp<T>(fn: () => T): T {
	try {
		return fn();
	} catch (error) {
		if (error instanceof CriteriaError) throw new HttpError(error.code, error.details, error.message);
		throw error;
	}
}

/** `trigger`, `process`, `lar_id`, `wf_trigger` of a record write body (§5.1 RW), validated. */
interface WriteExtras {
	trigger?: string[];
	process?: unknown[];
	lar_id?: string;
	wf_trigger?: string;
	fired: string[];
}

function writeExtras(ctx: Ctx): WriteExtras {
	const body = ctx.json();
	const extras: WriteExtras = { fired: [...TRIGGERS] };
	if (body.trigger !== undefined && body.trigger !== null) {
		const list = body.trigger;
		if (!Array.isArray(list) || list.some((t) => typeof t !== 'string' || !TRIGGERS.includes(t))) {
			throw HttpError.invalidData({ api_name: 'trigger', expected_data_type: 'jsonarray' }, 'invalid trigger');
		}
		extras.trigger = list as string[];
		extras.fired = [...(list as string[])];
	}
	if (body.process !== undefined && body.process !== null) {
		if (!Array.isArray(body.process)) throw HttpError.invalidData({ api_name: 'process', expected_data_type: 'jsonarray' });
		extras.process = body.process;
	}
	if (body.lar_id !== undefined && body.lar_id !== null) {
		if (!/^\d+$/.test(String(body.lar_id))) throw HttpError.invalidData({ api_name: 'lar_id' }, 'invalid lead assignment rule id');
		extras.lar_id = String(body.lar_id);
	}
	if (body.wf_trigger !== undefined && body.wf_trigger !== null) extras.wf_trigger = String(body.wf_trigger);
	return extras;
}

/** `wf_trigger` query parameter of deletes: `true` / `false` text in both variants (§13). */
function wfTriggerParam(ctx: Ctx): string | undefined {
	const value = ctx.q('wf_trigger');
	if (value === undefined) return undefined;
	if (value !== 'true' && value !== 'false') throw HttpError.invalidData({ [paramKey(ctx)]: 'wf_trigger' }, 'wf_trigger must be true or false');
	return value;
}

function idsOf(results: Array<Json | ErrorBody>): string[] {
	return results
		.map((r) => ((r as Json).details as Json | undefined)?.id)
		.filter((id): id is string => typeof id === 'string');
}

/** A custom view of the module by id (the `custom_views` collection, read tolerantly); 400 when unknown. */
function customView(ctx: Ctx, module: ModuleDef, cvid: string): Json {
	const view = ctx.sandbox.store.doc<Json>('custom_views', cvid);
	const viewModule = view ? ((view.module as Json | undefined)?.api_name ?? view.module) : undefined;
	if (!view || (typeof viewModule === 'string' && viewModule.toLowerCase() !== module.api_name.toLowerCase())) {
		throw HttpError.invalidData({ [paramKey(ctx)]: 'cvid' }, 'customview not accessible');
	}
	return view;
}

function viewPredicate(ctx: Ctx, module: ModuleDef, view: Json): RecordPredicate {
	const criteria = view.criteria;
	if (!criteria || (typeof criteria === 'object' && Object.keys(criteria).length === 0)) return () => true;
	return criteriaHttp(() => jsonCriteriaPredicate(module, criteria));
}

function territoryEnabled(ctx: Ctx): void {
	if (ctx.sandbox.config.knobs.territoriesEnabled === false) {
		throw new HttpError('TERRITORY_NOT_ENABLED', {}, 'territory feature not enabled');
	}
}

// ---- mass update jobs (§8.3) ---------------------------------------------------------------------

const MASS_UPDATE_JOBS = 'mass_update_jobs';
const MASS_UPDATE_MAX_IDS = 500;
const MASS_UPDATE_MAX_RECORDS = 50_000;

interface MassUpdateJob {
	id: string;
	module: string;
	v: string;
	user: { id: string; name: string; email?: string };
	data: Json;
	over_write: boolean;
	cvid?: string;
	record_ids: string[];
	/** index of the next record to process */
	cursor: number;
	Status: 'SCHEDULED' | 'RUNNING' | 'COMPLETED' | 'FAILED';
	Total_Count: number;
	Updated_Count: number;
	Not_Updated_Count: number;
	Failed_Count: number;
	/** bumps on every transition; a timer only acts when the job is still at the step it was set for */
	step: number;
	fail_next?: boolean;
}

/** Applies the job's field values to records [cursor, end); counts outcomes. */
function processMassUpdate(sandbox: Sandbox, job: MassUpdateJob, end: number): void {
	const module = sandbox.module(job.module);
	if (!module) return;
	sandbox.store.transaction(() => {
		for (; job.cursor < end && job.cursor < job.record_ids.length; job.cursor++) {
			const existing = sandbox.store.getRecord(module.api_name, job.record_ids[job.cursor]);
			if (!existing) {
				job.Not_Updated_Count++;
				continue;
			}
			const changes: Json = { ...job.data };
			if (!job.over_write) {
				// without over_write, multi-select values are added to the existing ones
				for (const field of module.fields) {
					if (field.data_type !== 'multiselectpicklist' || !Array.isArray(changes[field.api_name])) continue;
					const before = Array.isArray(existing[field.api_name]) ? (existing[field.api_name] as string[]) : [];
					changes[field.api_name] = [...new Set([...before, ...(changes[field.api_name] as string[])])];
				}
			}
			const result = updateRecord(sandbox, module, existing, changes, { v: job.v, user: job.user, index: 0 });
			if (result.ok) job.Updated_Count++;
			else if (result.body.code === 'CONVERTED_RECORD' || result.body.code === 'RECORD_IN_BLUEPRINT') job.Not_Updated_Count++;
			else job.Failed_Count++;
		}
	});
}

/** One transition: SCHEDULED → RUNNING (first half processed) → COMPLETED (rest) | FAILED (rest failed). */
function advanceMassUpdate(sandbox: Sandbox, jobId: string, fail = false): MassUpdateJob | undefined {
	const job = sandbox.store.doc<MassUpdateJob>(MASS_UPDATE_JOBS, jobId);
	if (!job || job.Status === 'COMPLETED' || job.Status === 'FAILED') return job;
	if (fail) job.fail_next = true;
	if (job.Status === 'SCHEDULED') {
		job.Status = 'RUNNING';
		processMassUpdate(sandbox, job, Math.ceil(job.record_ids.length / 2));
	} else if (job.fail_next) {
		job.Status = 'FAILED';
		job.Failed_Count += job.record_ids.length - job.cursor;
		job.cursor = job.record_ids.length;
	} else {
		processMassUpdate(sandbox, job, job.record_ids.length);
		job.Status = 'COMPLETED';
	}
	job.step++;
	sandbox.store.putDoc(MASS_UPDATE_JOBS, job.id, job);
	scheduleMassUpdate(sandbox, job);
	return job;
}

function scheduleMassUpdate(sandbox: Sandbox, job: MassUpdateJob): void {
	if (job.Status === 'COMPLETED' || job.Status === 'FAILED') return;
	const step = job.step;
	sandbox.later(sandbox.config.jobStepMs, () => {
		const current = sandbox.store.doc<MassUpdateJob>(MASS_UPDATE_JOBS, job.id);
		if (current && current.step === step) advanceMassUpdate(sandbox, job.id);
	});
}

function statusJson(job: MassUpdateJob): Json {
	return {
		Status: job.Status,
		Total_Count: job.Total_Count,
		Updated_Count: job.Updated_Count,
		Not_Updated_Count: job.Not_Updated_Count,
		Failed_Count: job.Failed_Count,
	};
}

// ---- photos --------------------------------------------------------------------------------------

const PHOTOS = 'record_photos';
const PHOTO_MODULES = new Set(['Leads', 'Contacts', 'Accounts', 'Products', 'Vendors']);
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/webp']);

interface PhotoDoc {
	module: string;
	record_id: string;
	file_name: string;
	content_type: string;
	size: number;
	data: string;
	uploaded_time: string;
}

function photoRecord(ctx: Ctx): { module: ModuleDef; record: StoredRecord } {
	const module = ctx.module!;
	if (!PHOTO_MODULES.has(module.api_name) && module.generated_type !== 'custom') {
		throw new HttpError('NOT_SUPPORTED', { module: module.api_name }, 'photo is not supported for the module');
	}
	const record = ctx.sandbox.store.getRecord(module.api_name, ctx.params.id);
	if (!record) throw HttpError.invalidData({ id: ctx.params.id }, 'the id given seems to be invalid');
	return { module, record };
}

// ---- lead conversion -------------------------------------------------------------------------------

const CONVERT_NOTIFICATIONS = 'convert_notifications';

/** Lead fields carried to the new Contact and Account. */
const LEAD_TO_CONTACT: Record<string, string> = {
	First_Name: 'First_Name',
	Last_Name: 'Last_Name',
	Email: 'Email',
	Phone: 'Phone',
	Mobile: 'Mobile',
	Lead_Source: 'Lead_Source',
	Designation: 'Title',
	Email_Opt_Out: 'Email_Opt_Out',
	Street: 'Mailing_Street',
	City: 'Mailing_City',
	State: 'Mailing_State',
	Zip_Code: 'Mailing_Zip',
	Country: 'Mailing_Country',
};
const LEAD_TO_ACCOUNT: Record<string, string> = {
	Company: 'Account_Name',
	Phone: 'Phone',
	Website: 'Website',
	Industry: 'Industry',
	Annual_Revenue: 'Annual_Revenue',
	Rating: 'Rating',
	Street: 'Billing_Street',
	City: 'Billing_City',
	State: 'Billing_State',
	Zip_Code: 'Billing_Code',
	Country: 'Billing_Country',
};

function mapFields(lead: Json, mapping: Record<string, string>): Json {
	const out: Json = {};
	for (const [from, to] of Object.entries(mapping)) {
		const value = lead[from];
		if (value !== undefined && value !== null && value !== '') out[to] = value;
	}
	return out;
}

const idOf = (value: unknown): string | undefined => {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'object') {
		const id = (value as Json).id;
		return id === undefined || id === null ? undefined : String(id);
	}
	return String(value);
};

/** Throws the item error of a failed write as the request's 400 (ConvertLead is all-or-nothing). */
function must(result: ItemResult, target: string): StoredRecord {
	if (!result.ok) throw new HttpError(result.body.code, { ...result.body.details, module: target }, result.body.message);
	return result.record;
}

export function registerRecords(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	const opts = { scopes: RECORD_SCOPES };
	const updateScopes = { scopes: [['CRM.modules.{mod}.UPDATE']] };

	router.get(
		'/:module',
		(ctx) => {
			const module = ctx.module!;
			const p = paging(ctx);
			const fields = fieldsParam(ctx);
			const ids = idsParam(ctx, 'ids', 100, false);
			const sortBy = ctx.q('sort_by');
			if (sortBy && !module.fields.some((f) => f.api_name === sortBy)) {
				throw HttpError.invalidData({ [paramKey(ctx)]: 'sort_by' }, 'invalid sort_by field');
			}
			const sortOrder = ctx.q('sort_order');
			if (sortOrder && sortOrder !== 'asc' && sortOrder !== 'desc') {
				throw HttpError.invalidData({ [paramKey(ctx)]: 'sort_order' });
			}
			for (const name of ['converted', 'approved']) {
				const value = ctx.q(name);
				if (value !== undefined && !['true', 'false', 'both'].includes(value)) throw HttpError.invalidData({ [paramKey(ctx)]: name });
			}
			// cvid: the view's criteria; territory_id (+include_child): records assigned to the territory
			const filters: RecordPredicate[] = [];
			const cvid = ctx.q('cvid');
			if (cvid !== undefined) filters.push(viewPredicate(ctx, module, customView(ctx, module, cvid)));
			const territoryId = ctx.q('territory_id');
			if (territoryId !== undefined) {
				if (!territories(sandbox).some((t) => t.id === territoryId)) throw HttpError.invalidData({ [paramKey(ctx)]: 'territory_id' });
				const scope = territoryScope(sandbox, territoryId, ctx.q('include_child') === 'true');
				filters.push((r) => recordTerritoryIds(r).some((id) => scope.has(id)));
			}
			// startDateTime / endDateTime bound Created_Time (inclusive)
			for (const [name, cmp] of [
				['startDateTime', (t: number, b: number) => t >= b],
				['endDateTime', (t: number, b: number) => t <= b],
			] as const) {
				const raw = ctx.q(name);
				if (raw === undefined) continue;
				const bound = parseDateTime(raw);
				if (bound === undefined) throw HttpError.invalidData({ [paramKey(ctx)]: name, expected_data_type: 'datetime' });
				filters.push((r) => cmp(parseDateTime(r.Created_Time) ?? 0, bound));
			}
			const since = ifModifiedSince(ctx);
			if (since !== undefined && (store.latestModified(module.api_name) ?? 0) <= since) return { status: 304 };
			// converted leads are hidden unless asked for (§3.2); the store filters them in its index, so a
			// page costs its own rows whatever the module's size (no JS pass over the module)
			const converted = ctx.q('converted') ?? 'false';
			const listOptions = {
				ids,
				sortBy,
				sortOrder: (sortOrder ?? 'desc') as 'asc' | 'desc',
				modifiedSince: since,
				converted: converted === 'both' ? undefined : converted === 'true',
			};
			let records: Json[] = [];
			if (ctx.q('approved') === 'false') {
				// every sandbox record is approved
			} else if (filters.length > 0) {
				// predicates SQL cannot express: walk the listing in order and stop at the page's end
				let skipped = 0;
				store.scanRecords(module.api_name, listOptions, (r) => {
					if (!filters.every((f) => f(r))) return true;
					if (skipped < p.offset) {
						skipped++;
						return true;
					}
					records.push(r);
					return records.length <= p.perPage;
				});
			} else {
				records = store.listRecords(module.api_name, { ...listOptions, offset: p.offset, limit: p.perPage + 1 });
			}
			const extra = ctx.v === 'v2.1' && sortBy ? { sort_by: sortBy, sort_order: sortOrder ?? 'desc' } : {};
			return pagedReply('data', p, records.map((r) => pickFields(r, fields)), extra);
		},
		opts,
	);

	router.get(
		'/:module/:id',
		(ctx) => {
			const module = ctx.module!;
			const fields = fieldsParam(ctx);
			const { external, key } = addressed(ctx);
			const record = findRecord(sandbox, module, key, external);
			if (!record) return { status: 204 };
			const since = ifModifiedSince(ctx);
			if (since !== undefined && Date.parse(String(record.Modified_Time)) <= since) return { status: 304 };
			return { body: { data: [pickFields(record, fields)] } };
		},
		opts,
	);

	router.post(
		'/:module',
		(ctx) => {
			const module = ctx.module!;
			if (!module.creatable) throw new HttpError('NOT_SUPPORTED', { module: module.api_name }, 'the module does not support creating records');
			const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
			const external = externalOf(ctx);
			const extras = writeExtras(ctx);
			const results = store.transaction(() => {
				const out = items.map((item, index) => createRecord(sandbox, module, item, writeOptions(ctx, index, external)).body);
				logWrite(sandbox, { operation: 'create', module: module.api_name, v: ctx.v, ...extras, ids: idsOf(out) });
				return out;
			});
			return { status: writeStatus(results, 201), body: { data: results } };
		},
		opts,
	);

	router.post(
		'/:module/upsert',
		(ctx) => {
			const module = ctx.module!;
			const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
			const external = externalOf(ctx);
			const extras = writeExtras(ctx);
			const body = ctx.json();
			let checkFields = defaultDuplicateCheckFields(module);
			if (body.duplicate_check_fields !== undefined && body.duplicate_check_fields !== null) {
				const list = body.duplicate_check_fields;
				if (!Array.isArray(list) || list.length === 0) {
					throw HttpError.invalidData({ api_name: 'duplicate_check_fields', expected_data_type: 'jsonarray' });
				}
				for (const name of list) {
					const field = module.fields.find((f) => f.api_name === name);
					if (!field || field.read_only) throw HttpError.invalidData({ api_name: String(name) }, 'invalid duplicate check field');
				}
				checkFields = list as string[];
			}
			if (external.field) checkFields = [external.field, ...checkFields.filter((f) => f !== external.field)];
			const results = store.transaction(() => {
				const out = items.map((item, index) => upsertRecord(sandbox, module, item, checkFields, writeOptions(ctx, index, external)).body);
				logWrite(sandbox, {
					operation: 'upsert',
					module: module.api_name,
					v: ctx.v,
					...extras,
					duplicate_check_fields: checkFields,
					ids: idsOf(out),
				});
				return out;
			});
			return { status: writeStatus(results, 200), body: { data: results } };
		},
		opts,
	);

	const updateOne = (ctx: Ctx, item: unknown, index: number, key: string | undefined, external: ExternalSpec): Json | ErrorBody => {
		const module = ctx.module!;
		if (!item || typeof item !== 'object' || Array.isArray(item)) return errorItem('INVALID_DATA', {}, 'invalid data');
		const input = item as Json;
		const idKey = key ?? (external.field ? input[external.field] : input.id);
		if (idKey === undefined || idKey === null || idKey === '') {
			const apiName = external.field ?? 'id';
			return errorItem('MANDATORY_NOT_FOUND', ctx.v === 'v2.1' ? { api_name: apiName, json_path: `$.data[${index}].${apiName}` } : { api_name: apiName });
		}
		const existing = findRecord(sandbox, module, String(idKey), external);
		if (!existing) return errorItem('INVALID_DATA', { id: String(idKey) }, 'the id given seems to be invalid');
		const changes = { ...input };
		delete changes.id;
		if (external.field) delete changes[external.field];
		return updateRecord(sandbox, module, existing, changes, writeOptions(ctx, index, external)).body;
	};

	router.put(
		'/:module',
		(ctx) => {
			const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
			const external = externalOf(ctx);
			const extras = writeExtras(ctx);
			const results = store.transaction(() => {
				const out = items.map((item, index) => updateOne(ctx, item, index, undefined, external));
				logWrite(sandbox, { operation: 'update', module: ctx.module!.api_name, v: ctx.v, ...extras, ids: idsOf(out) });
				return out;
			});
			return { status: writeStatus(results, 200), body: { data: results } };
		},
		opts,
	);

	router.put(
		'/:module/:id',
		(ctx) => {
			const items = wrapperList(ctx, 'data', 1);
			const { external, key } = addressed(ctx);
			const extras = writeExtras(ctx);
			const results = store.transaction(() => {
				const out = items.map((item, index) => updateOne(ctx, item, index, key, external));
				logWrite(sandbox, { operation: 'update', module: ctx.module!.api_name, v: ctx.v, ...extras, ids: idsOf(out) });
				return out;
			});
			return { status: writeStatus(results, 200), body: { data: results } };
		},
		opts,
	);

	const deleteOne = (ctx: Ctx, key: string, external: ExternalSpec): Json | ErrorBody => {
		const module = ctx.module!;
		const record = findRecord(sandbox, module, key, external);
		if (!record) return errorItem('INVALID_DATA', { id: key }, 'the id given seems to be invalid');
		return deleteRecord(sandbox, module, record, writeOptions(ctx, 0, external));
	};

	router.delete(
		'/:module',
		(ctx) => {
			const module = ctx.module!;
			if (!module.deletable) throw new HttpError('NOT_SUPPORTED', { module: module.api_name }, 'the module does not support deleting records');
			const external = externalOf(ctx);
			const ids = external.field ? ctx.list('ids') : idsParam(ctx, 'ids', 100, true)!;
			if (ids.length === 0) throw HttpError.requiredParam('ids', ctx.v);
			if (ids.length > 100) throw HttpError.limit(100, 'ids');
			const wfTrigger = wfTriggerParam(ctx);
			const results = store.transaction(() => {
				const out = ids.map((id) => deleteOne(ctx, id, external));
				logWrite(sandbox, {
					operation: 'delete',
					module: module.api_name,
					v: ctx.v,
					fired: wfTrigger === 'false' ? [] : ['workflow'],
					wf_trigger: wfTrigger,
					ids: idsOf(out),
				});
				return out;
			});
			return { status: writeStatus(results, 200), body: { data: results } };
		},
		opts,
	);

	router.delete(
		'/:module/:id',
		(ctx) => {
			const { external, key } = addressed(ctx);
			const wfTrigger = wfTriggerParam(ctx);
			const result = store.transaction(() => {
				const out = deleteOne(ctx, key, external);
				logWrite(sandbox, {
					operation: 'delete',
					module: ctx.module!.api_name,
					v: ctx.v,
					fired: wfTrigger === 'false' ? [] : ['workflow'],
					wf_trigger: wfTrigger,
					ids: idsOf([out]),
				});
				return out;
			});
			return { status: writeStatus([result], 200), body: { data: [result] } };
		},
		opts,
	);

	// ---- SearchRecords, RecordCount ------------------------------------------------------------

	const searchQuery = (ctx: Ctx) => ({
		criteria: ctx.q('criteria'),
		email: ctx.q('email'),
		phone: ctx.q('phone'),
		word: ctx.q('word'),
	});

	router.get(
		'/:module/search',
		(ctx) => {
			const module = ctx.module!;
			const p = paging(ctx);
			const fields = fieldsParam(ctx);
			const predicate = criteriaHttp(() => searchPredicate(module, searchQuery(ctx)));
			if (!predicate) throw HttpError.requiredParam('criteria', ctx.v);
			const matches: Json[] = [];
			for (const record of store.iterateRecords(module.api_name)) {
				if (visible(ctx, record) && predicate(record)) matches.push(record);
			}
			return pagedReply('data', p, pageOf(matches, p).map((r) => pickFields(r, fields)));
		},
		opts,
	);

	router.get(
		'/:module/actions/count',
		(ctx) => {
			const module = ctx.module!;
			const predicate = criteriaHttp(() => searchPredicate(module, searchQuery(ctx)));
			let count = 0;
			for (const record of store.iterateRecords(module.api_name)) {
				if (visible(ctx, record) && (!predicate || predicate(record))) count++;
			}
			return { body: { count } };
		},
		{ ...opts, v21Only: true },
	);

	// ---- GetDeletedRecords ---------------------------------------------------------------------

	router.get(
		'/:module/deleted',
		(ctx) => {
			const module = ctx.module!;
			const p = paging(ctx);
			const type = ctx.q('type') ?? 'all';
			if (type !== 'all' && type !== 'recycle' && type !== 'permanent') throw HttpError.invalidData({ [paramKey(ctx)]: 'type' }, 'invalid type');
			const since = ifModifiedSince(ctx);
			const entries = store.listDeleted(module.api_name, type, since);
			if (since !== undefined && entries.length === 0) return { status: 304 };
			return pagedReply('data', p, pageOf(entries, p).map((e) => deletedJson(sandbox, e)));
		},
		opts,
	);

	// ---- photos --------------------------------------------------------------------------------

	router.get(
		'/:module/:id/photo',
		(ctx) => {
			const { module, record } = photoRecord(ctx);
			const photo = store.doc<PhotoDoc>(PHOTOS, `${module.api_name}:${record.id}`);
			if (!photo) return { status: 204 };
			return {
				raw: Buffer.from(photo.data, 'base64'),
				headers: { 'Content-Type': photo.content_type, 'Content-Disposition': contentDisposition(photo.file_name) },
			};
		},
		opts,
	);

	router.post(
		'/:module/:id/photo',
		(ctx) => {
			const { module, record } = photoRecord(ctx);
			const file = ctx.files.find((f) => f.field === 'file');
			if (!file) throw HttpError.invalidData({}, 'the request does not contain any file');
			if (file.data.length > sandbox.config.maxFileBytes) {
				throw new HttpError('FILE_SIZE_MORE_THAN_ALLOWED_SIZE', { limit: sandbox.config.maxFileBytes }, 'file size is more than the allowed size');
			}
			if (!IMAGE_TYPES.has(file.contentType.toLowerCase())) throw HttpError.invalidData({}, 'the image format is invalid');
			const doc: PhotoDoc = {
				module: module.api_name,
				record_id: record.id,
				file_name: file.filename,
				content_type: file.contentType,
				size: file.data.length,
				data: file.data.toString('base64'),
				uploaded_time: sandbox.formatTime(),
			};
			store.putDoc(PHOTOS, `${module.api_name}:${record.id}`, doc);
			return { body: { code: 'SUCCESS', details: {}, message: 'photo uploaded successfully', status: 'success' } };
		},
		opts,
	);

	router.delete(
		'/:module/:id/photo',
		(ctx) => {
			const { module, record } = photoRecord(ctx);
			if (!store.deleteDoc(PHOTOS, `${module.api_name}:${record.id}`)) {
				throw HttpError.invalidData({ id: record.id }, 'no photo exists for the record');
			}
			return { body: { code: 'SUCCESS', details: {}, message: 'Photo deleted', status: 'success' } };
		},
		opts,
	);

	// ---- MassUpdate, GetMassUpdateStatus ---------------------------------------------------------

	router.post(
		'/:module/actions/mass_update',
		(ctx) => {
			const module = ctx.module!;
			const [data] = wrapperList(ctx, 'data', 1);
			if (!data || typeof data !== 'object' || Array.isArray(data)) throw HttpError.invalidData({ api_name: 'data' });
			const body = ctx.json();
			const values = { ...(data as Json) };
			delete values.id;
			for (const key of Object.keys(values)) {
				// `$` keys are the service's own (`$converted`, `$approved`, …): ignored, as on every record write
				if (key.startsWith('$')) {
					delete values[key];
					continue;
				}
				const field = module.fields.find((f) => f.api_name === key);
				if (!field) throw HttpError.invalidData({ api_name: key }, 'invalid field name');
				if (field.read_only || field.unique) throw HttpError.invalidData({ api_name: key }, 'the field cannot be mass updated');
			}
			if (Object.keys(values).length === 0) throw HttpError.mandatory('data');
			const selectors = (['ids', 'cvid', 'territory'] as const).filter((k) => body[k] !== undefined && body[k] !== null);
			if (selectors.length !== 1) {
				throw new HttpError('MANDATORY_NOT_FOUND', { api_name: 'ids' }, 'exactly one of ids, cvid or territory is required');
			}
			const selector = selectors[0];
			if (body.over_write !== undefined && typeof body.over_write !== 'boolean') {
				throw HttpError.invalidData({ api_name: 'over_write', expected_data_type: 'boolean' });
			}
			const user = sandbox.user(ctx);
			let recordIds: string[];
			let cvid: string | undefined;
			if (selector === 'ids') {
				const ids = body.ids;
				if (!Array.isArray(ids) || ids.length === 0) throw HttpError.mandatory('ids');
				if (ids.length > MASS_UPDATE_MAX_IDS) throw HttpError.limit(MASS_UPDATE_MAX_IDS, 'ids');
				recordIds = ids.map(String);
				const bad = recordIds.find((id) => !/^\d+$/.test(id));
				if (bad) throw HttpError.invalidData({ api_name: 'ids', id: bad }, 'the id given seems to be invalid');
			} else {
				let predicate: RecordPredicate;
				if (selector === 'cvid') {
					cvid = String(body.cvid);
					const view = customView(ctx, module, cvid);
					const base = viewPredicate(ctx, module, view);
					const extra = body.criteria === undefined ? [] : Array.isArray(body.criteria) ? body.criteria : [body.criteria];
					const more = extra.map((c) => criteriaHttp(() => jsonCriteriaPredicate(module, c)));
					predicate = (r) => base(r) && more.every((m) => m(r));
					const running = store
						.docs<MassUpdateJob>(MASS_UPDATE_JOBS)
						.find((j) => j.cvid === cvid && (j.Status === 'SCHEDULED' || j.Status === 'RUNNING'));
					if (running) throw new HttpError('ALREADY_SCHEDULED', { cvid }, 'a mass action is already scheduled for the custom view');
				} else {
					territoryEnabled(ctx);
					const t = body.territory as Json;
					const id = t && typeof t === 'object' ? idOf(t) : undefined;
					if (!id || !territories(sandbox).some((x) => x.id === id)) throw HttpError.invalidData({ api_name: 'territory' }, 'invalid territory');
					// v2 sends a Territory object; v2.1 `{id, include_child}` (§13)
					const scope = territoryScope(sandbox, id, ctx.v === 'v2.1' && t.include_child === true);
					predicate = (r) => recordTerritoryIds(r).some((x) => scope.has(x));
				}
				recordIds = [];
				for (const record of store.iterateRecords(module.api_name)) {
					if (record.$converted !== true && predicate(record)) recordIds.push(record.id);
				}
				if (recordIds.length > MASS_UPDATE_MAX_RECORDS) throw HttpError.limit(MASS_UPDATE_MAX_RECORDS, 'data', 'record count exceeded');
			}
			const job: MassUpdateJob = {
				id: store.nextId(),
				module: module.api_name,
				v: ctx.v,
				user,
				data: values,
				over_write: body.over_write === true,
				cvid,
				record_ids: recordIds,
				cursor: 0,
				Status: 'SCHEDULED',
				Total_Count: recordIds.length,
				Updated_Count: 0,
				Not_Updated_Count: 0,
				Failed_Count: 0,
				step: 0,
			};
			if (selector === 'ids') {
				// ids mode runs before the response; the job is already COMPLETED (§8.3)
				processMassUpdate(sandbox, job, recordIds.length);
				job.Status = 'COMPLETED';
				store.putDoc(MASS_UPDATE_JOBS, job.id, job);
				return {
					body: { data: [{ code: 'SUCCESS', details: { job_id: job.id }, message: 'record updated', status: 'success' }] },
				};
			}
			store.putDoc(MASS_UPDATE_JOBS, job.id, job);
			scheduleMassUpdate(sandbox, job);
			return {
				status: 202,
				body: { data: [{ code: 'SUCCESS', details: { job_id: job.id }, message: 'Mass update scheduled successfully', status: 'success' }] },
			};
		},
		{ scopes: [['CRM.mass_update.UPDATE', 'CRM.mass_update.{mod}.UPDATE']] },
	);

	router.get(
		'/:module/actions/mass_update',
		(ctx) => {
			const jobId = requiredQuery(ctx, 'job_id');
			const job = store.doc<MassUpdateJob>(MASS_UPDATE_JOBS, jobId);
			if (!job || job.module !== ctx.module!.api_name) throw HttpError.invalidData({ [paramKey(ctx)]: 'job_id' }, 'the job id given seems to be invalid');
			return { body: { data: [statusJson(job)] } };
		},
		{ scopes: [['CRM.mass_update.READ', 'CRM.mass_update.{mod}.READ']] },
	);

	// ---- ConvertLead -------------------------------------------------------------------------------

	router.post(
		'/Leads/:id/actions/convert',
		(ctx) => {
			const contacts = sandbox.module('Contacts')!;
			const accounts = sandbox.module('Accounts')!;
			const deals = sandbox.module('Deals')!;
			const [raw] = wrapperList(ctx, 'data', 1);
			if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw HttpError.invalidData({ api_name: 'data' });
			const input = raw as Json;
			const lead = store.getRecord('Leads', ctx.params.id);
			if (!lead) throw HttpError.invalidData({ id: ctx.params.id }, 'the id given seems to be invalid');
			if (lead.$converted === true) throw new HttpError('ID_ALREADY_CONVERTED', { id: lead.id }, 'id already converted');
			for (const key of ['notify_lead_owner', 'notify_new_entity_owner', 'overwrite']) {
				if (input[key] !== undefined && typeof input[key] !== 'boolean') throw HttpError.invalidData({ api_name: key, expected_data_type: 'boolean' });
			}
			const actor = sandbox.user(ctx);
			const assignTo = idOf(input.assign_to);
			let owner = lead.Owner as Json | undefined;
			if (assignTo) {
				const user = store.doc<{ id: string; full_name: string; email: string }>('users', assignTo);
				if (!user) throw HttpError.invalidData({ api_name: 'assign_to', id: assignTo }, 'the id given seems to be invalid');
				owner = { id: user.id, name: user.full_name, email: user.email };
			}
			const o: WriteOptions = { v: ctx.v, user: actor, index: 0 };
			const withOwner = (fields: Json): Json => (owner ? { ...fields, Owner: { id: owner.id } } : fields);
			const overwrite = input.overwrite === true;

			const result = store.transaction(() => {
				// Account: the given one, else one named like the lead's company, else a new one
				let account: StoredRecord | undefined;
				const accountId = idOf(input.Accounts);
				if (accountId) {
					account = store.getRecord('Accounts', accountId);
					if (!account) throw HttpError.invalidData({ api_name: 'Accounts', id: accountId }, 'the id given seems to be invalid');
					if (overwrite) {
						const changes = mapFields(lead, LEAD_TO_ACCOUNT);
						delete changes.Account_Name;
						account = must(updateRecord(sandbox, accounts, account, changes, o), 'Accounts');
					}
				} else if (typeof lead.Company === 'string' && lead.Company.trim() !== '') {
					account =
						store.findRecordByText('Accounts', 'Account_Name', lead.Company) ??
						must(createRecord(sandbox, accounts, withOwner(mapFields(lead, LEAD_TO_ACCOUNT)), o), 'Accounts');
				}
				// Contact: the given one (overwritten on request), else a new one from the lead
				let contact: StoredRecord;
				const contactId = idOf(input.Contacts);
				const contactFields = mapFields(lead, LEAD_TO_CONTACT);
				if (account) contactFields.Account_Name = { id: account.id };
				if (contactId) {
					const existing = store.getRecord('Contacts', contactId);
					if (!existing) throw HttpError.invalidData({ api_name: 'Contacts', id: contactId }, 'the id given seems to be invalid');
					const linked = idOf(existing.Account_Name);
					if (accountId && linked && linked !== accountId) {
						throw new HttpError('DATA_MISMATCH', { api_name: 'Contacts', id: contactId }, 'contact or account id mismatched with the data');
					}
					contact = overwrite ? must(updateRecord(sandbox, contacts, existing, contactFields, o), 'Contacts') : existing;
				} else {
					contact = must(createRecord(sandbox, contacts, withOwner(contactFields), o), 'Contacts');
				}
				// Deal: only when the request carries Deals data
				let deal: StoredRecord | undefined;
				if (input.Deals && typeof input.Deals === 'object' && Object.keys(input.Deals as Json).length > 0) {
					const dealFields: Json = { ...(input.Deals as Json), Contact_Name: { id: contact.id } };
					if (account) dealFields.Account_Name = { id: account.id };
					deal = must(createRecord(sandbox, deals, withOwner(dealFields), o), 'Deals');
				}
				// carry_over_tags: the lead's tags named per target module move along
				const carry = (input.carry_over_tags ?? {}) as Json;
				const leadTags = Array.isArray(lead.Tag) ? (lead.Tag as Json[]) : [];
				const targets: Array<[string, ModuleDef, StoredRecord | undefined]> = [
					['Contacts', contacts, contact],
					['Accounts', accounts, account],
					['Deals', deals, deal],
				];
				for (const [key, module, record] of targets) {
					const wanted = carry[key];
					if (!record || !Array.isArray(wanted) || wanted.length === 0) continue;
					const names = new Set(wanted.map((w) => String(typeof w === 'object' && w ? ((w as Json).name ?? (w as Json).id) : w).toLowerCase()));
					const moved = leadTags.filter((t) => names.has(String(t.name).toLowerCase()) || names.has(String(t.id).toLowerCase()));
					if (moved.length === 0) continue;
					const current = store.getRecord(module.api_name, record.id)!;
					const tags = [...(Array.isArray(current.Tag) ? (current.Tag as Json[]) : [])];
					for (const t of moved) if (!tags.some((x) => String(x.name).toLowerCase() === String(t.name).toLowerCase())) tags.push(t);
					store.replaceRecord(module.api_name, { ...current, Tag: tags }, sandbox.now(), { Tag: tags }, { v: ctx.v, silent: true });
				}
				// the lead is marked converted (further updates answer CONVERTED_RECORD)
				const now = sandbox.now();
				const detail = {
					Contacts: contact.id,
					Accounts: account?.id ?? null,
					Deals: deal?.id ?? null,
					convert_time: sandbox.formatTime(now),
					converted_by: { id: actor.id, name: actor.name },
				};
				store.replaceRecord(
					'Leads',
					{ ...lead, $converted: true, $converted_detail: detail, Modified_Time: sandbox.formatTime(now), Modified_By: { id: actor.id, name: actor.name, email: actor.email } },
					now,
					{ $converted: true },
					{ v: ctx.v },
				);
				const notify = (kind: string, to: Json | undefined) => {
					if (!to) return;
					const id = store.nextId();
					store.putDoc(CONVERT_NOTIFICATIONS, id, { id, kind, lead_id: lead.id, to: { id: to.id, name: to.name }, at: sandbox.formatTime(now) });
				};
				if (input.notify_lead_owner === true) notify('lead_owner', lead.Owner as Json | undefined);
				if (input.notify_new_entity_owner === true) notify('new_entity_owner', owner);
				return { Contacts: contact.id, Accounts: account?.id ?? null, Deals: deal?.id ?? null };
			});
			return { body: { data: [result] } };
		},
		{ scopes: [['CRM.modules.leads.CREATE']] },
	);

	// ---- territory assignment (v2.1 only) ------------------------------------------------------------

	const territoryItem = (ctx: Ctx, item: unknown, index: number, key: string | undefined, assign: boolean): Json | ErrorBody => {
		const module = ctx.module!;
		if (!item || typeof item !== 'object' || Array.isArray(item)) return errorItem('INVALID_DATA', {}, 'invalid data');
		const input = item as Json;
		const id = key ?? idOf(input.id);
		if (!id) return errorItem('MANDATORY_NOT_FOUND', { api_name: 'id', json_path: `$.data[${index}].id` });
		const record = store.getRecord(module.api_name, id);
		if (!record) return errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
		const wanted = input.Territories;
		if (!Array.isArray(wanted) || wanted.length === 0) {
			return errorItem('MANDATORY_NOT_FOUND', { api_name: 'Territories', json_path: `$.data[${index}].Territories` });
		}
		const known = territories(sandbox);
		const current = Array.isArray(record.Territories) ? [...(record.Territories as Json[])] : [];
		const actor = sandbox.user(ctx);
		for (const w of wanted) {
			const tid = idOf(w);
			const territory = known.find((t) => t.id === tid);
			if (!territory) return errorItem('INVALID_DATA', { api_name: 'Territories', id: tid ?? null, json_path: `$.data[${index}].Territories` }, 'the id given seems to be invalid');
			const at = current.findIndex((c) => String(c.id) === territory.id);
			if (assign && at === -1) {
				current.push({ id: territory.id, Name: territory.name, $assigned: true, $assigned_by: { id: actor.id, name: actor.name }, $assigned_time: sandbox.formatTime() });
			} else if (!assign && at !== -1) {
				if (current[at].$system === true) {
					return errorItem('NOT_ALLOWED', { api_name: 'Territories', id: territory.id }, 'territory removal of a system-assigned territory is not allowed');
				}
				current.splice(at, 1);
			}
		}
		const limit = sandbox.config.knobs.territoriesPerRecord;
		if (assign && typeof limit === 'number' && current.length > limit) {
			return errorItem('LIMIT_EXCEEDED', { api_name: 'Territories', limit }, 'maximum limit of territories for that record exceeds');
		}
		setRecordTerritories(sandbox, module, record, current, writeOptions(ctx, index));
		return {
			code: 'SUCCESS',
			details: { id: record.id },
			message: assign ? 'territory assignment updated' : 'territory assignment removed',
			status: 'success',
		};
	};

	for (const [action, assign] of [
		['assign_territories', true],
		['remove_territories', false],
	] as const) {
		router.post(
			`/:module/actions/${action}`,
			(ctx) => {
				territoryEnabled(ctx);
				const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
				const results = store.transaction(() => items.map((item, index) => territoryItem(ctx, item, index, undefined, assign)));
				return { status: writeStatus(results, 200), body: { data: results } };
			},
			{ ...updateScopes, v21Only: true },
		);
		router.post(
			`/:module/:id/actions/${action}`,
			(ctx) => {
				territoryEnabled(ctx);
				const items = wrapperList(ctx, 'data', 1);
				const results = store.transaction(() => items.map((item, index) => territoryItem(ctx, item, index, ctx.params.id, assign)));
				return { status: writeStatus(results, 200), body: { data: results } };
			},
			{ ...updateScopes, v21Only: true },
		);
	}

	// ---- test hooks --------------------------------------------------------------------------------

	const admin = { root: 'admin' as const, public: true };

	/** advances mass-update jobs one state: `{ "job_id": "…", "fail": true }` (all open jobs when no id) */
	router.post(
		'/mass_update/advance',
		(ctx) => {
			const body = ctx.json();
			const ids = body.job_id
				? [String(body.job_id)]
				: store.docs<MassUpdateJob>(MASS_UPDATE_JOBS).filter((j) => j.Status === 'SCHEDULED' || j.Status === 'RUNNING').map((j) => j.id);
			const jobs = ids.map((id) => advanceMassUpdate(sandbox, id, body.fail === true)).filter(Boolean) as MassUpdateJob[];
			return { body: { jobs: jobs.map((j) => ({ id: j.id, ...statusJson(j) })) } };
		},
		admin,
	);

	/** empties a module's recycle bin: `{ "module": "Leads", "ids": ["…"] }` → entries become `permanent` */
	router.post(
		'/records/purge',
		(ctx) => {
			const body = ctx.json();
			const module = sandbox.module(String(body.module ?? ''));
			if (!module) throw new HttpError('INVALID_MODULE');
			const ids = Array.isArray(body.ids) ? body.ids.map(String) : undefined;
			return { body: { purged: purgeRecycleBin(sandbox, module.api_name, ids) } };
		},
		admin,
	);

	/** the record writes' options (trigger, process, lar_id, wf_trigger) and what fired */
	router.get('/records/writes', () => ({ body: { writes: store.docs('record_write_log') } }), admin);

}
