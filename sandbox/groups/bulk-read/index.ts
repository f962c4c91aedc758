// Bulk read (docs/protocol.md §5.11, §8.1, §10.1, §10.3): CreateBulkReadJob, GetBulkReadJobDetails,
// DownloadResult, one file each. A job moves ADDED → IN PROGRESS → COMPLETED | FAILURE, one step
// per `jobStepMs`; the COMPLETED step extracts one page (200,000 records by default) of the
// module's records that match the JSON criteria (§3.12) into `{jobId}.zip` holding `{jobId}.csv`
// (or `.ics` for Events). Knobs: `bulkReadConcurrency` (jobs not yet terminal, default 5, beyond →
// 429), `bulkReadPageSize` (default 200000), `bulkReadDownloadsPerMinute` (default 10, beyond → 429).
// Test hooks (§8 "advance or fail a job on demand"): GET /__sandbox/bulk/read,
// POST /__sandbox/bulk/read/{jobId}/advance, POST /__sandbox/bulk/read/{jobId}/fail.
// Helpers, the job steps and the extraction in shared.ts.
import { scheduleStep } from '../../jobs.ts';
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { createBulkReadJob } from './create-bulk-read-job.ts';
import { downloadResult } from './download-result.ts';
import { getBulkReadJobDetails } from './get-bulk-read-job-details.ts';
import { READ_JOBS, stepper } from './shared.ts';
import type { BulkReadJob } from './shared.ts';
import { advanceBulkRead, failBulkRead, listBulkReads } from './test-hooks.ts';

export function registerBulkRead(router: Router, sandbox: Sandbox): void {
	// jobs left unfinished by a previous run of a file-backed store carry on
	for (const job of sandbox.store.docs<BulkReadJob>(READ_JOBS)) {
		if (job.state === 'ADDED' || job.state === 'IN PROGRESS')
			scheduleStep(sandbox, READ_JOBS, job.id, stepper(sandbox));
	}
	router.register([
		createBulkReadJob,
		getBulkReadJobDetails,
		downloadResult,
		listBulkReads,
		advanceBulkRead,
		failBulkRead,
	]);
}
