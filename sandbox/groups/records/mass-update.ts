import { HttpError } from '../../errors.ts';
import {
	jsonCriteriaPredicate,
	recordTerritoryIds,
	territories,
	territoryScope,
} from '../../records.ts';
import type { RecordPredicate } from '../../records.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import {
	criteriaHttp,
	customView,
	idOf,
	MASS_UPDATE_JOBS,
	MASS_UPDATE_MAX_IDS,
	MASS_UPDATE_MAX_RECORDS,
	processMassUpdate,
	scheduleMassUpdate,
	territoryEnabled,
	viewPredicate,
} from './shared.ts';
import type { MassUpdateJob } from './shared.ts';

/** MassUpdate: POST /crm/{v}/{module}/actions/mass_update (jobs §8.3) (docs/protocol.md §5.1). */
export const massUpdate = operation(
	'POST',
	'/:module/actions/mass_update',
	{ scopes: [['CRM.mass_update.UPDATE', 'CRM.mass_update.{mod}.UPDATE']] },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const module = ctx.module!;
		const [data] = wrapperList(ctx, 'data', 1);
		if (!data || typeof data !== 'object' || Array.isArray(data))
			throw HttpError.invalidData({ api_name: 'data' });
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
			if (field.read_only || field.unique)
				throw HttpError.invalidData({ api_name: key }, 'the field cannot be mass updated');
		}
		if (Object.keys(values).length === 0) throw HttpError.mandatory('data');
		const selectors = (['ids', 'cvid', 'territory'] as const).filter(
			(k) => body[k] !== undefined && body[k] !== null,
		);
		if (selectors.length !== 1) {
			throw new HttpError(
				'MANDATORY_NOT_FOUND',
				{ api_name: 'ids' },
				'exactly one of ids, cvid or territory is required',
			);
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
			if (bad)
				throw HttpError.invalidData(
					{ api_name: 'ids', id: bad },
					'the id given seems to be invalid',
				);
		} else {
			let predicate: RecordPredicate;
			if (selector === 'cvid') {
				cvid = String(body.cvid);
				const view = customView(ctx, module, cvid);
				const base = viewPredicate(ctx, module, view);
				const extra =
					body.criteria === undefined
						? []
						: Array.isArray(body.criteria)
							? body.criteria
							: [body.criteria];
				const more = extra.map((c) => criteriaHttp(() => jsonCriteriaPredicate(module, c)));
				predicate = (r) => base(r) && more.every((m) => m(r));
				const running = store
					.docs<MassUpdateJob>(MASS_UPDATE_JOBS)
					.find((j) => j.cvid === cvid && (j.Status === 'SCHEDULED' || j.Status === 'RUNNING'));
				if (running)
					throw new HttpError(
						'ALREADY_SCHEDULED',
						{ cvid },
						'a mass action is already scheduled for the custom view',
					);
			} else {
				territoryEnabled(ctx);
				const t = body.territory as Json;
				const id = t && typeof t === 'object' ? idOf(t) : undefined;
				if (!id || !territories(sandbox).some((x) => x.id === id))
					throw HttpError.invalidData({ api_name: 'territory' }, 'invalid territory');
				// v2 sends a Territory object; v2.1 `{id, include_child}` (§13)
				const scope = territoryScope(sandbox, id, ctx.v === 'v2.1' && t.include_child === true);
				predicate = (r) => recordTerritoryIds(r).some((x) => scope.has(x));
			}
			recordIds = [];
			for (const record of store.iterateRecords(module.api_name)) {
				if (record.$converted !== true && predicate(record)) recordIds.push(record.id);
			}
			if (recordIds.length > MASS_UPDATE_MAX_RECORDS)
				throw HttpError.limit(MASS_UPDATE_MAX_RECORDS, 'data', 'record count exceeded');
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
				body: {
					data: [
						{
							code: 'SUCCESS',
							details: { job_id: job.id },
							message: 'record updated',
							status: 'success',
						},
					],
				},
			};
		}
		store.putDoc(MASS_UPDATE_JOBS, job.id, job);
		scheduleMassUpdate(sandbox, job);
		return {
			status: 202,
			body: {
				data: [
					{
						code: 'SUCCESS',
						details: { job_id: job.id },
						message: 'Mass update scheduled successfully',
						status: 'success',
					},
				],
			},
		};
	},
);
