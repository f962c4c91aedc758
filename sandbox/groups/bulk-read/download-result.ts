import { HttpError } from '../../errors.ts';
import { contentDisposition } from '../../http.ts';
import { operation } from '../../router.ts';
import { knobOr } from '../shared.ts';
import { READ_FILES, downloadsOf, jobOf, jobScopes } from './shared.ts';

/** DownloadResult: GET /crm/bulk/{v}/read/{jobId}/result, the zip of a COMPLETED job (docs/protocol.md §5.11, §10.1). */
export const downloadResult = operation(
	'GET',
	'/read/:jobId/result',
	{ root: 'bulk', scopes: jobScopes },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const job = jobOf(ctx);
		const file =
			job.state === 'COMPLETED'
				? store.doc<{ name: string; data: string }>(READ_FILES, job.id)
				: undefined;
		if (!file)
			throw HttpError.notFound(
				'RESOURCE_NOT_FOUND',
				{ api_name: 'job_id', value: job.id, info_message: `the job is ${job.state}` },
				'the requested resource is not found',
			);
		const now = sandbox.now();
		const downloads = downloadsOf(sandbox);
		while (downloads.length && downloads[0] <= now - 60_000) downloads.shift();
		if (downloads.length >= knobOr(sandbox.config.knobs.bulkReadDownloadsPerMinute, 10))
			throw new HttpError('TOO_MANY_REQUESTS');
		downloads.push(now);
		return {
			raw: Buffer.from(file.data, 'base64'),
			headers: {
				'Content-Type': 'application/zip',
				'Content-Disposition': contentDisposition(file.name),
			},
		};
	},
);
