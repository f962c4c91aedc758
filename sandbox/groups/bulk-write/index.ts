// Bulk write (docs/protocol.md §1.2, §5.11, §8.2, §10.2, §10.3, §11.4): UploadFile (a zip holding one
// CSV, headers `feature: bulk-write` + `X-CRM-ORG`), CreateBulkWriteJob, GetBulkWriteJobDetails and
// DownloadBulkWriteResult. Rows go through the record service (createRecord / updateRecord, so
// validation, unique checks and change events are those of every other write path) in chunks of
// `bulkWriteChunk` rows (default 1,000), each chunk one store transaction, yielding between chunks.
// Knobs: `bulkWriteChunk`, `bulkWriteMaxRows` (25,000), `bulkWriteMaxZipBytes` (25 MB),
// `bulkWriteMaxColumns` (200), `bulkWriteConcurrency` (jobs not yet terminal, default 5 → 429),
// `bulkWriteChunkDelayMs` (pause between chunks, default 0).
// One file per operation; helpers and the job processing in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { createBulkWriteJob } from './create-bulk-write-job.ts';
import { downloadBulkWriteResult } from './download-bulk-write-result.ts';
import { getBulkWriteJobDetails } from './get-bulk-write-job-details.ts';
import { resumeBulkWrites } from './shared.ts';
import { advanceBulkWrite, failBulkWrite, getUploadedFile, listBulkWrites } from './test-hooks.ts';
import { uploadFile } from './upload-file.ts';

export { WRITE_JOBS } from './shared.ts';
export type { FieldMapping } from './shared.ts';

export function registerBulkWrite(router: Router, sandbox: Sandbox): void {
	router.register([
		uploadFile,
		createBulkWriteJob,
		getBulkWriteJobDetails,
		downloadBulkWriteResult,
		advanceBulkWrite,
		failBulkWrite,
		listBulkWrites,
		getUploadedFile,
	]);
	resumeBulkWrites(sandbox);
}
