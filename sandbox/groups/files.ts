// Shared file store (docs/protocol.md §5.13): UploadFiles (1..10 parts `file`, ≤ maxFileBytes each)
// and GetFile. Files are JSON documents of the `files` collection — {id, name, contentType, size,
// data (base64)} — which other groups read too (SendMail attachments reference these ids).
import { randomBytes } from 'node:crypto';

import { HttpError } from '../errors.ts';
import { contentDisposition } from '../http.ts';
import type { Router } from '../router.ts';
import { operation } from '../router.ts';
import { paramKey } from '../wire.ts';

/** A stored file of the shared file store. Keep this shape: the mail group reads it. */
export interface StoredFile {
	id: string;
	name: string;
	contentType: string;
	size: number;
	/** base64 */
	data: string;
}

export const FILES_PER_UPLOAD = 10;

/** Opaque "encrypted" file id (§5.13): hex text, never a number. */
function newFileId(): string {
	return randomBytes(32).toString('hex');
}

const uploadFiles = operation('POST', '/files', { scopes: [['CRM.files.CREATE']] }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const type = ctx.q('type');
	if (type !== undefined && type !== 'inline') {
		throw HttpError.invalidData({ [paramKey(ctx)]: 'type' }, 'invalid value for type');
	}
	const files = ctx.files.filter((f) => f.field === 'file');
	if (files.length === 0) throw HttpError.invalidData({}, 'the request does not contain any file');
	if (files.length > FILES_PER_UPLOAD)
		throw HttpError.limit(FILES_PER_UPLOAD, 'file', 'the limit has been exceeded');
	const tooBig = files.find((f) => f.data.length > sandbox.config.maxFileBytes);
	if (tooBig) {
		throw new HttpError('FILE_SIZE_MORE_THAN_ALLOWED_SIZE', {
			limit: sandbox.config.maxFileBytes,
			api_name: tooBig.filename,
		});
	}
	const data = store.transaction(() =>
		files.map((file) => {
			const doc: StoredFile = {
				id: newFileId(),
				name: file.filename,
				contentType: file.contentType,
				size: file.data.length,
				data: file.data.toString('base64'),
			};
			store.putDoc('files', doc.id, doc);
			return {
				code: 'SUCCESS',
				details: { name: doc.name, id: doc.id },
				message: 'uploaded successfully',
				status: 'success',
			};
		}),
	);
	return { status: 201, body: { data } };
});

export const getFile = operation('GET', '/files', { scopes: [['CRM.files.READ']] }, (ctx) => {
	const { store } = ctx.sandbox;
	const id = ctx.q('id');
	if (id === undefined) throw HttpError.requiredParam('id', ctx.v);
	const file = store.doc<StoredFile>('files', id);
	if (!file) throw HttpError.invalidData({ id }, 'no file exists with the given id');
	return {
		raw: Buffer.from(file.data, 'base64'),
		headers: {
			'Content-Type': file.contentType || 'application/octet-stream',
			'Content-Disposition': contentDisposition(file.name),
		},
	};
});

export function registerFiles(router: Router): void {
	router.register([uploadFiles, getFile]);
}
