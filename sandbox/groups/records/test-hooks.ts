// Test hooks of the record group under /__sandbox (not part of the CRM service).
import { HttpError } from '../../errors.ts';
import { purgeRecycleBin } from '../../records.ts';
import { operation } from '../../router.ts';
import { CONVERT_NOTIFICATIONS } from './convert-lead.ts';
import { advanceMassUpdate, MASS_UPDATE_JOBS, statusJson } from './shared.ts';
import type { MassUpdateJob } from './shared.ts';

const admin = { root: 'admin' as const, public: true };

/** advances mass-update jobs one state: `{ "job_id": "…", "fail": true }` (all open jobs when no id) */
export const advanceMassUpdates = operation('POST', '/mass_update/advance', admin, (ctx) => {
	const { sandbox } = ctx;
	const body = ctx.json();
	const ids = body.job_id
		? [String(body.job_id)]
		: sandbox.store
				.docs<MassUpdateJob>(MASS_UPDATE_JOBS)
				.filter((j) => j.Status === 'SCHEDULED' || j.Status === 'RUNNING')
				.map((j) => j.id);
	const jobs = ids
		.map((id) => advanceMassUpdate(sandbox, id, body.fail === true))
		.filter(Boolean) as MassUpdateJob[];
	return { body: { jobs: jobs.map((j) => ({ id: j.id, ...statusJson(j) })) } };
});

/** empties a module's recycle bin: `{ "module": "Leads", "ids": ["…"] }` → entries become `permanent` */
export const purgeRecords = operation('POST', '/records/purge', admin, (ctx) => {
	const body = ctx.json();
	const module = ctx.sandbox.module(String(body.module ?? ''));
	if (!module) throw new HttpError('INVALID_MODULE');
	const ids = Array.isArray(body.ids) ? body.ids.map(String) : undefined;
	return { body: { purged: purgeRecycleBin(ctx.sandbox, module.api_name, ids) } };
});

/** the record writes' options (trigger, process, lar_id, wf_trigger) and what fired */
export const recordWrites = operation('GET', '/records/writes', admin, (ctx) => ({
	body: { writes: ctx.sandbox.store.docs('record_write_log') },
}));

/** the notifications ConvertLead sent (notify_lead_owner, notify_new_entity_owner): `?lead_id=…` */
export const convertNotifications = operation(
	'GET',
	'/records/convert_notifications',
	admin,
	(ctx) => {
		const leadId = ctx.q('lead_id');
		const notifications = ctx.sandbox.store
			.docs<{ lead_id: string }>(CONVERT_NOTIFICATIONS)
			.filter((n) => !leadId || n.lead_id === leadId);
		return { body: { notifications } };
	},
);
