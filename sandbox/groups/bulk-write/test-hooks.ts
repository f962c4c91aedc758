// Test hooks of the bulk write group under /__sandbox (§8): advance a job one step, or make it fail;
// list the jobs; read an uploaded file back (the service offers neither).
import { HttpError } from '../../errors.ts';
import { contentDisposition } from '../../http.ts';
import { saveJob, scheduleStep } from '../../jobs.ts';
import { operation } from '../../router.ts';
import { jobOf, stepBulkWrite, stepper, WRITE_FILES, WRITE_JOBS, writeJobJson } from './shared.ts';
import type { BulkWriteJob, UploadedFile } from './shared.ts';

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

/** every bulk write job, oldest first, as GetBulkWriteJobDetails renders it */
export const listBulkWrites = operation('GET', '/bulk/write', admin, (ctx) => ({
	body: {
		jobs: ctx.sandbox.store.docs<BulkWriteJob>(WRITE_JOBS).map((job) => writeJobJson(job, 'v2.1')),
	},
}));

/** an uploaded file as stored: the zip's bytes, the CSV's name in `Content-Disposition` */
export const getUploadedFile = operation('GET', '/bulk/write/files/:fileId', admin, (ctx) => {
	const file = ctx.sandbox.store.doc<UploadedFile>(WRITE_FILES, ctx.params.fileId);
	if (!file) throw HttpError.notFound();
	return {
		raw: Buffer.from(file.data, 'base64'),
		headers: {
			'Content-Type': 'application/zip',
			'Content-Disposition': contentDisposition(file.name),
		},
	};
});
