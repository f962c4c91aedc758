// Test hooks of the bulk read group under /__sandbox (not part of the CRM service): advance or fail
// a job on demand (docs/protocol.md §8).
import { saveJob, scheduleStep } from '../../jobs.ts';
import { operation } from '../../router.ts';
import type { BulkReadJob } from './shared.ts';
import { READ_JOBS, jobOf, readJobJson, stepBulkRead, stepper } from './shared.ts';

const admin = { root: 'admin' as const, public: true };

/** every bulk read job, oldest first, as GetBulkReadJobDetails renders it plus its `callback` (the service lists none) */
export const listBulkReads = operation('GET', '/bulk/read', admin, (ctx) => {
	const jobs = ctx.sandbox.store
		.docs<BulkReadJob>(READ_JOBS)
		.map((job) => ({ ...readJobJson(job, 'v2.1'), callback: job.callback ?? null }));
	return { body: { jobs } };
});

export const advanceBulkRead = operation('POST', '/bulk/read/:jobId/advance', admin, (ctx) => {
	const { store } = ctx.sandbox;
	const job = jobOf(ctx);
	stepBulkRead(ctx.sandbox, job);
	return { body: readJobJson(store.doc<BulkReadJob>(READ_JOBS, job.id)!, 'v2.1') };
});

export const failBulkRead = operation('POST', '/bulk/read/:jobId/fail', admin, (ctx) => {
	const { sandbox } = ctx;
	const job = jobOf(ctx);
	if (job.state === 'ADDED' || job.state === 'IN PROGRESS') {
		job.$fail = true;
		saveJob(sandbox, READ_JOBS, job);
		scheduleStep(sandbox, READ_JOBS, job.id, stepper(sandbox));
	}
	return { body: readJobJson(job, 'v2.1') };
});
