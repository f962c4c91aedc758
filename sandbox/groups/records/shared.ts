// Helpers shared by the record operations (docs/protocol.md §5.1): parameters, write extras,
// custom views, mass-update jobs (§8.3), photos, the per-item writes.
import type { ModuleDef } from '../../catalogue/modules.ts';
import { errorItem, HttpError } from '../../errors.ts';
import type { ErrorBody } from '../../errors.ts';
import {
	CriteriaError,
	deleteRecord,
	findRecord,
	jsonCriteriaPredicate,
	logWrite,
	parseExternalHeader,
	setRecordTerritories,
	territories,
	TRIGGERS,
	updateRecord,
} from '../../records.ts';
import type { ExternalSpec, RecordPredicate, WriteLogEntry, WriteOptions } from '../../records.ts';
import type { Json, StoredRecord } from '../../store.ts';
import type { Ctx, Sandbox } from '../../types.ts';
import { paramKey, wrapperList } from '../../wire.ts';
import { resultsReply, successItem } from '../shared.ts';
import type { Reply } from '../../router.ts';

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

export function fieldsParam(ctx: Ctx): string[] | undefined {
	const fields = ctx.list('fields');
	if (fields.length === 0) return undefined;
	const known = new Set(ctx.module!.fields.map((f) => f.api_name));
	const unknown = fields.find((f) => !known.has(f));
	if (unknown)
		throw HttpError.invalidData(
			{ api_name: unknown, [paramKey(ctx)]: 'fields' },
			'invalid field name',
		);
	return fields;
}

/** `converted` / `approved` tri-state filters (§3.2); converted leads are hidden by default. */
export function visible(ctx: Ctx, record: Json): boolean {
	const converted = ctx.q('converted') ?? 'false';
	const isConverted = record.$converted === true;
	if (converted === 'false' && isConverted) return false;
	if (converted === 'true' && !isConverted) return false;
	return ctx.q('approved') !== 'false';
}

/** The record addressed by `:id` (an id, or an external value under X-EXTERNAL). */
export function addressed(ctx: Ctx): { external: ExternalSpec; key: string } {
	const external = externalOf(ctx);
	if (ctx.header('x-external') && !external.field) {
		throw HttpError.invalidData(
			{ api_name: 'X-EXTERNAL' },
			'the external field does not belong to the module',
		);
	}
	return { external, key: ctx.params.id };
}

export { paramKey };

/** A CriteriaError from the record service as the 400 it stands for. */
export function criteriaHttp<T>(fn: () => T): T {
	try {
		return fn();
	} catch (error) {
		if (error instanceof CriteriaError)
			throw new HttpError(error.code, error.details, error.message);
		throw error;
	}
}

/** `trigger`, `process`, `lar_id`, `wf_trigger` of a record write body (§5.1 RW), validated. */
export interface WriteExtras {
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
			throw HttpError.invalidData(
				{ api_name: 'trigger', expected_data_type: 'jsonarray' },
				'invalid trigger',
			);
		}
		extras.trigger = list as string[];
		extras.fired = [...(list as string[])];
	}
	if (body.process !== undefined && body.process !== null) {
		if (!Array.isArray(body.process))
			throw HttpError.invalidData({ api_name: 'process', expected_data_type: 'jsonarray' });
		extras.process = body.process;
	}
	if (body.lar_id !== undefined && body.lar_id !== null) {
		if (!/^\d+$/.test(String(body.lar_id)))
			throw HttpError.invalidData({ api_name: 'lar_id' }, 'invalid lead assignment rule id');
		extras.lar_id = String(body.lar_id);
	}
	if (body.wf_trigger !== undefined && body.wf_trigger !== null)
		extras.wf_trigger = String(body.wf_trigger);
	return extras;
}

/** `wf_trigger` query parameter of deletes: `true` / `false` text in both variants (§13). */
export function wfTriggerParam(ctx: Ctx): string | undefined {
	const value = ctx.q('wf_trigger');
	if (value === undefined) return undefined;
	if (value !== 'true' && value !== 'false')
		throw HttpError.invalidData(
			{ [paramKey(ctx)]: 'wf_trigger' },
			'wf_trigger must be true or false',
		);
	return value;
}

export function idsOf(results: Array<Json | ErrorBody>): string[] {
	return results
		.map((r) => ((r as Json).details as Json | undefined)?.id)
		.filter((id): id is string => typeof id === 'string');
}

/** A custom view of the module by id (the `custom_views` collection, read tolerantly); 400 when unknown. */
export function customView(ctx: Ctx, module: ModuleDef, cvid: string): Json {
	const view = ctx.sandbox.store.doc<Json>('custom_views', cvid);
	const viewModule = view
		? ((view.module as Json | undefined)?.api_name ?? view.module)
		: undefined;
	if (
		!view ||
		(typeof viewModule === 'string' && viewModule.toLowerCase() !== module.api_name.toLowerCase())
	) {
		throw HttpError.invalidData({ [paramKey(ctx)]: 'cvid' }, 'customview not accessible');
	}
	return view;
}

export function viewPredicate(ctx: Ctx, module: ModuleDef, view: Json): RecordPredicate {
	const criteria = view.criteria;
	if (!criteria || (typeof criteria === 'object' && Object.keys(criteria).length === 0))
		return () => true;
	return criteriaHttp(() => jsonCriteriaPredicate(module, criteria));
}

export function territoryEnabled(ctx: Ctx): void {
	if (ctx.sandbox.config.knobs.territoriesEnabled === false) {
		throw new HttpError('TERRITORY_NOT_ENABLED', {}, 'territory feature not enabled');
	}
}

// ---- mass update jobs (§8.3) ---------------------------------------------------------------------

export const MASS_UPDATE_JOBS = 'mass_update_jobs';
export const MASS_UPDATE_MAX_IDS = 500;
export const MASS_UPDATE_MAX_RECORDS = 50_000;

export interface MassUpdateJob {
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
export function processMassUpdate(sandbox: Sandbox, job: MassUpdateJob, end: number): void {
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
					if (field.data_type !== 'multiselectpicklist' || !Array.isArray(changes[field.api_name]))
						continue;
					const before = Array.isArray(existing[field.api_name])
						? (existing[field.api_name] as string[])
						: [];
					changes[field.api_name] = [
						...new Set([...before, ...(changes[field.api_name] as string[])]),
					];
				}
			}
			const result = updateRecord(sandbox, module, existing, changes, {
				v: job.v,
				user: job.user,
				index: 0,
			});
			if (result.ok) job.Updated_Count++;
			else if (
				result.body.code === 'CONVERTED_RECORD' ||
				result.body.code === 'RECORD_IN_BLUEPRINT'
			)
				job.Not_Updated_Count++;
			else job.Failed_Count++;
		}
	});
}

/** One transition: SCHEDULED → RUNNING (first half processed) → COMPLETED (rest) | FAILED (rest failed). */
export function advanceMassUpdate(
	sandbox: Sandbox,
	jobId: string,
	fail = false,
): MassUpdateJob | undefined {
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

export function scheduleMassUpdate(sandbox: Sandbox, job: MassUpdateJob): void {
	if (job.Status === 'COMPLETED' || job.Status === 'FAILED') return;
	const step = job.step;
	sandbox.later(sandbox.config.jobStepMs, () => {
		const current = sandbox.store.doc<MassUpdateJob>(MASS_UPDATE_JOBS, job.id);
		if (current && current.step === step) advanceMassUpdate(sandbox, job.id);
	});
}

export function statusJson(job: MassUpdateJob): Json {
	return {
		Status: job.Status,
		Total_Count: job.Total_Count,
		Updated_Count: job.Updated_Count,
		Not_Updated_Count: job.Not_Updated_Count,
		Failed_Count: job.Failed_Count,
	};
}

// ---- photos --------------------------------------------------------------------------------------

export const PHOTOS = 'record_photos';
const PHOTO_MODULES = new Set(['Leads', 'Contacts', 'Accounts', 'Products', 'Vendors']);

export interface PhotoDoc {
	module: string;
	record_id: string;
	file_name: string;
	content_type: string;
	size: number;
	data: string;
	uploaded_time: string;
}

export function photoRecord(ctx: Ctx): { module: ModuleDef; record: StoredRecord } {
	const module = ctx.module!;
	if (!PHOTO_MODULES.has(module.api_name) && module.generated_type !== 'custom') {
		throw new HttpError(
			'NOT_SUPPORTED',
			{ module: module.api_name },
			'photo is not supported for the module',
		);
	}
	const record = ctx.sandbox.store.getRecord(module.api_name, ctx.params.id);
	if (!record)
		throw HttpError.invalidData({ id: ctx.params.id }, 'the id given seems to be invalid');
	return { module, record };
}

// ---- per-item writes of several operations ---------------------------------------------------------

/** One item of UpdateRecords / UpdateRecord: the addressed record updated, or the item error. */
export function updateOne(
	ctx: Ctx,
	item: unknown,
	index: number,
	key: string | undefined,
	external: ExternalSpec,
): Json | ErrorBody {
	const { sandbox } = ctx;
	const module = ctx.module!;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = item as Json;
	const idKey = key ?? (external.field ? input[external.field] : input.id);
	if (idKey === undefined || idKey === null || idKey === '') {
		const apiName = external.field ?? 'id';
		return errorItem(
			'MANDATORY_NOT_FOUND',
			ctx.v === 'v2.1'
				? { api_name: apiName, json_path: `$.data[${index}].${apiName}` }
				: { api_name: apiName },
		);
	}
	const existing = findRecord(sandbox, module, String(idKey), external);
	if (!existing)
		return errorItem('INVALID_DATA', { id: String(idKey) }, 'the id given seems to be invalid');
	const changes = { ...input };
	delete changes.id;
	if (external.field) delete changes[external.field];
	return updateRecord(sandbox, module, existing, changes, writeOptions(ctx, index, external)).body;
}

/** One record of DeleteRecords / DeleteRecord. */
export function deleteOne(ctx: Ctx, key: string, external: ExternalSpec): Json | ErrorBody {
	const { sandbox } = ctx;
	const module = ctx.module!;
	const record = findRecord(sandbox, module, key, external);
	if (!record) return errorItem('INVALID_DATA', { id: key }, 'the id given seems to be invalid');
	return deleteRecord(sandbox, module, record, writeOptions(ctx, 0, external));
}

/** The §3.11 parameters of SearchRecords and RecordCount. */
export function searchQuery(ctx: Ctx) {
	return {
		criteria: ctx.q('criteria'),
		email: ctx.q('email'),
		phone: ctx.q('phone'),
		word: ctx.q('word'),
	};
}

/** One item of the territory assignment operations (assign or remove). */
export function territoryItem(
	ctx: Ctx,
	item: unknown,
	index: number,
	key: string | undefined,
	assign: boolean,
): Json | ErrorBody {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const module = ctx.module!;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = item as Json;
	const id = key ?? idOf(input.id);
	if (!id)
		return errorItem('MANDATORY_NOT_FOUND', { api_name: 'id', json_path: `$.data[${index}].id` });
	const record = store.getRecord(module.api_name, id);
	if (!record) return errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
	const wanted = input.Territories;
	if (!Array.isArray(wanted) || wanted.length === 0) {
		return errorItem('MANDATORY_NOT_FOUND', {
			api_name: 'Territories',
			json_path: `$.data[${index}].Territories`,
		});
	}
	const known = territories(sandbox);
	const current = Array.isArray(record.Territories) ? [...(record.Territories as Json[])] : [];
	const actor = sandbox.user(ctx);
	for (const w of wanted) {
		const tid = idOf(w);
		const territory = known.find((t) => t.id === tid);
		if (!territory)
			return errorItem(
				'INVALID_DATA',
				{ api_name: 'Territories', id: tid ?? null, json_path: `$.data[${index}].Territories` },
				'the id given seems to be invalid',
			);
		const at = current.findIndex((c) => String(c.id) === territory.id);
		if (assign && at === -1) {
			current.push({
				id: territory.id,
				Name: territory.name,
				$assigned: true,
				$assigned_by: { id: actor.id, name: actor.name },
				$assigned_time: sandbox.formatTime(),
			});
		} else if (!assign && at !== -1) {
			if (current[at].$system === true) {
				return errorItem(
					'NOT_ALLOWED',
					{ api_name: 'Territories', id: territory.id },
					'territory removal of a system-assigned territory is not allowed',
				);
			}
			current.splice(at, 1);
		}
	}
	const limit = sandbox.config.knobs.territoriesPerRecord;
	if (assign && typeof limit === 'number' && current.length > limit) {
		return errorItem(
			'LIMIT_EXCEEDED',
			{ api_name: 'Territories', limit },
			'maximum limit of territories for that record exceeds',
		);
	}
	setRecordTerritories(sandbox, module, record, current, writeOptions(ctx, index));
	return successItem(
		record.id,
		assign ? 'territory assignment updated' : 'territory assignment removed',
	);
}

/** The id of a lookup value (`{id}` or the id itself). */
export const idOf = (value: unknown): string | undefined => {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'object') {
		const id = (value as Json).id;
		return id === undefined || id === null ? undefined : String(id);
	}
	return String(value);
};

/** The territory assignment operations: record UPDATE scope, v2.1 only. */
export const TERRITORY_OPTIONS = { scopes: [['CRM.modules.{mod}.UPDATE']], v21Only: true };

/** Where a record write's items go: the X-EXTERNAL field, and the record of the path (UpdateRecord). */
interface WriteTarget {
	external: ExternalSpec;
	key?: string;
	/** what the log entry of the write adds (UpsertRecords: its duplicate check fields) */
	logged: Partial<WriteLogEntry>;
}

/**
 * A record write (§5.1): the body's `data` (at most `max` items), X-EXTERNAL and the automation
 * extras are read in that order, every item written in one transaction, the write logged with
 * the ids it touched, the results answered with `status`.
 */
export function loggedWrite(
	ctx: Ctx,
	operation: 'create' | 'update' | 'upsert',
	w: {
		max: number;
		status: number;
		/** the record of the path (UpdateRecord); default: X-EXTERNAL only */
		address?: (ctx: Ctx) => { external: ExternalSpec; key?: string };
		/** more of the log entry, read after the extras */
		logged?: (external: ExternalSpec) => Partial<WriteLogEntry>;
		write: (item: unknown, index: number, target: WriteTarget) => Json | ErrorBody;
	},
): Reply {
	const { sandbox } = ctx;
	const items = wrapperList(ctx, 'data', w.max);
	const { external, key } = w.address
		? w.address(ctx)
		: { external: externalOf(ctx), key: undefined };
	const extras = writeExtras(ctx);
	const target: WriteTarget = { external, key, logged: w.logged?.(external) ?? {} };
	const results = sandbox.store.transaction(() => {
		const out = items.map((item, index) => w.write(item, index, target));
		logWrite(sandbox, {
			operation,
			module: ctx.module!.api_name,
			v: ctx.v,
			...extras,
			...target.logged,
			ids: idsOf(out),
		});
		return out;
	});
	return resultsReply('data', w.status, results);
}
