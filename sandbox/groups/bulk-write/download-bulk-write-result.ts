import { HttpError } from '../../errors.ts';
import { contentDisposition } from '../../http.ts';
import { operation } from '../../router.ts';
import { orgXgid, WRITE_JOBS, WRITE_OUTPUT } from './shared.ts';
import type { BulkWriteJob } from './shared.ts';

/** DownloadBulkWriteResult: GET `result.download_url` (root /v2/crm; docs/protocol.md §5.11, §10.3). */
export const downloadBulkWriteResult = operation(
	'GET',
	'/:orgId/bulk-write/:jobId/:fileName',
	{ root: 'download', scopes: [['CRM.bulk.ALL', 'CRM.bulk.READ', 'CRM.bulk.CREATE']] },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const job = store.doc<BulkWriteJob>(WRITE_JOBS, ctx.params.jobId);
		const output = job?.result ? store.doc<{ data: string }>(WRITE_OUTPUT, job.id) : undefined;
		if (
			!job ||
			!output ||
			ctx.params.orgId !== orgXgid(sandbox) ||
			ctx.params.fileName !== `${job.id}.zip`
		) {
			throw HttpError.notFound(
				'RESOURCE_NOT_FOUND',
				{ job_id: ctx.params.jobId },
				'the requested resource is not found',
			);
		}
		return {
			raw: Buffer.from(output.data, 'base64'),
			headers: {
				'Content-Type': 'application/zip',
				'Content-Disposition': contentDisposition(`${job.id}.zip`),
			},
		};
	},
);
