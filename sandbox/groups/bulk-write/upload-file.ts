import { parseCsv } from '../../csv.ts';
import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import type { Reply } from '../../types.ts';
import { looksLikeZip, readZip } from '../../zip.ts';
import { knobOr } from '../shared.ts';
import { bulkWriteShape, orgXgid, WRITE_FILES } from './shared.ts';
import type { UploadedFile } from './shared.ts';

/** UploadFile: POST {upload_domain}/crm/{v}/upload (docs/protocol.md §5.11; errors §11.4). */
export const uploadFile = operation(
	'POST',
	'/upload',
	{
		uploadHost: true,
		scopes: [['CRM.bulk.ALL', 'CRM.bulk.CREATE', 'CRM.files.ALL', 'CRM.files.CREATE']],
	},
	(ctx): Reply => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		try {
			const feature = ctx.header('feature');
			if (!feature) throw HttpError.mandatory('feature', 'required header not found');
			if (feature.toLowerCase() !== 'bulk-write')
				throw HttpError.invalidData(
					{ api_name: 'feature' },
					'the feature header must be bulk-write',
				);
			const org = ctx.header('x-crm-org');
			if (!org) throw HttpError.mandatory('X-CRM-ORG', 'required header not found');
			if (org !== orgXgid(sandbox))
				throw HttpError.invalidData({ api_name: 'X-CRM-ORG' }, 'the organisation given is invalid');
			const files = ctx.files.filter((f) => f.field === 'file');
			if (files.length === 0)
				throw HttpError.invalidData({}, 'the request does not contain any file');
			if (files.length > 1) throw HttpError.limit(1, 'file', 'only one zip file per upload');
			const [upload] = files;
			const maxZip = knobOr(sandbox.config.knobs.bulkWriteMaxZipBytes, 25 * 1024 * 1024);
			if (upload.data.length > maxZip)
				throw new HttpError('FILE_TOO_LARGE', { limit: maxZip }, 'file size too large');
			if (!looksLikeZip(upload.data))
				throw new HttpError(
					'INVALID_FILE_FORMAT',
					{},
					'invalid file format, only zip is supported',
				);
			let entries: ReturnType<typeof readZip> | undefined;
			let reason = '';
			try {
				entries = readZip(upload.data);
			} catch (error) {
				reason = (error as Error).message;
			}
			if (!entries)
				throw new HttpError(
					'INVALID_FILE_FORMAT',
					{ reason },
					'invalid file format, only zip is supported',
				);
			const csvs = entries.filter((e) => e.name.toLowerCase().endsWith('.csv'));
			if (entries.length !== 1 || csvs.length !== 1) {
				throw new HttpError(
					'FILE_NOT_SUPPORTED',
					{ files: entries.map((e) => e.name) },
					'the zip must hold exactly one CSV file',
				);
			}
			let rows: string[][] | undefined;
			try {
				rows = parseCsv(csvs[0].data.toString('utf8'));
			} catch (error) {
				reason = (error as Error).message;
			}
			if (!rows) throw new HttpError('INVALID_FORMAT', { reason }, 'the CSV file is malformed');
			if (rows.length === 0)
				throw new HttpError(
					'INVALID_FORMAT',
					{ reason: 'no header row' },
					'the CSV file has no header row',
				);
			const maxColumns = knobOr(sandbox.config.knobs.bulkWriteMaxColumns, 200);
			if (rows[0].length > maxColumns)
				throw new HttpError(
					'HEADER_LIMIT_EXCEEDED',
					{ limit: maxColumns },
					'the header limit has been exceeded',
				);
			const maxRows = knobOr(sandbox.config.knobs.bulkWriteMaxRows, 25_000);
			if (rows.length - 1 > maxRows)
				throw HttpError.limit(maxRows, 'file', 'the record limit of the file has been exceeded');
			const user = sandbox.user(ctx);
			const doc: UploadedFile = {
				id: store.nextId(),
				name: csvs[0].name.split('/').pop() || csvs[0].name,
				data: upload.data.toString('base64'),
				created_time: sandbox.formatTime(),
				created_by: { id: user.id, name: user.name },
			};
			store.putDoc(WRITE_FILES, doc.id, doc);
			return {
				body: {
					status: 'success',
					code: 'FILE_UPLOAD_SUCCESS',
					message: 'file uploaded.',
					details: { file_id: doc.id, created_time: doc.created_time, created_by: doc.created_by },
				},
			};
		} catch (error) {
			throw error instanceof HttpError ? bulkWriteShape(error) : error;
		}
	},
);
