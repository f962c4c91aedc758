// Test hooks of the bulk write group under /__sandbox (§8): advance a job one step, or make it fail.
import { saveJob, scheduleStep } from '../../jobs.ts';
import { operation } from '../../router.ts';
import { jobOf, stepBulkWrite, stepper, WRITE_JOBS, writeJobJson } from './shared.ts';

const admin = { root: 'admin' as const, public: true };

export const advanceBulkWrite = operation('POST', '/bulk/write/:jobId/advance', admin, (ctx) => {
	stepBulkWrite(ctx.sandbox, jobOf(ctx));
	return { body: writeJobJson(jobOf(ctx), 'v2.1') };
});

export const failBulkWrite = operation('POST', '/bulk/write/:jobId/fail', admin, (ctx) => {
	const { sandbox } = ctx;
	const job = jobOf(ctx);
	if (job.status === 'ADDED' || job.status === 'IN PROGRESS') {
		job.$fail = true;
		saveJob(sandbox, WRITE_JOBS, job);
		scheduleStep(sandbox, WRITE_JOBS, job.id, stepper(sandbox));
	}
	return { body: writeJobJson(job, 'v2.1') };
});
