// Stored file blobs shared by the groups that keep uploaded bytes (attachments, field attachments,
// and any other upload): one SQLite table next to the store's own, bytes as BLOBs (no base64 in
// JSON documents). Size limit of §6 (`config.maxFileBytes` → 413 FILE_SIZE_MORE_THAN_ALLOWED_SIZE).
import { randomBytes } from 'node:crypto';

import { HttpError } from './errors.ts';
import type { FilePart } from './router.ts';
import type { Sandbox } from './types.ts';

interface StoredFileInfo {
	/** opaque file id (hex text, never a number) */
	id: string;
	name: string;
	contentType: string;
	size: number;
	created: number;
}

export interface StoredFile extends StoredFileInfo {
	data: Buffer;
}

function ensureTable(sandbox: Sandbox): void {
	sandbox.store.db.exec(`
		CREATE TABLE IF NOT EXISTS file_blobs (
			id TEXT PRIMARY KEY, name TEXT NOT NULL, content_type TEXT NOT NULL,
			size INTEGER NOT NULL, created INTEGER NOT NULL, data BLOB NOT NULL)
	`);
}

/** 413 FILE_SIZE_MORE_THAN_ALLOWED_SIZE when the part is over the per-file limit (§6). */
function checkFileSize(sandbox: Sandbox, size: number): void {
	const limit = sandbox.config.maxFileBytes;
	if (size > limit) {
		throw new HttpError(
			'FILE_SIZE_MORE_THAN_ALLOWED_SIZE',
			{ limit, size },
			'file size is more than the allowed size',
		);
	}
}

/** The `file` part of a multipart request (§3.3); 400 INVALID_DATA when there is none. */
export function filePart(files: FilePart[], field = 'file'): FilePart {
	const part = files.find((f) => f.field === field);
	if (!part) throw HttpError.invalidData({}, 'the request does not contain any file');
	return part;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/webp']);

/**
 * The `file` part of a photo upload (record or organization, §6), as stored: present, within the
 * per-file limit, of an image type; `badType` is the message when it is not.
 */
export function uploadedImage(sandbox: Sandbox, files: FilePart[], badType: string) {
	const file = filePart(files);
	if (file.data.length > sandbox.config.maxFileBytes) {
		throw new HttpError(
			'FILE_SIZE_MORE_THAN_ALLOWED_SIZE',
			{ limit: sandbox.config.maxFileBytes },
			'file size is more than the allowed size',
		);
	}
	if (!IMAGE_TYPES.has(file.contentType.toLowerCase())) throw HttpError.invalidData({}, badType);
	return {
		file_name: file.filename,
		content_type: file.contentType,
		size: file.data.length,
		data: file.data.toString('base64'),
		uploaded_time: sandbox.formatTime(),
	};
}

/** The answer of a photo upload. */
export const PHOTO_UPLOADED = {
	body: { code: 'SUCCESS', details: {}, message: 'photo uploaded successfully', status: 'success' },
};

/** Stores bytes; answers the stored file's info. Checks the size limit first. */
export function putFile(
	sandbox: Sandbox,
	file: { name: string; contentType: string; data: Buffer },
): StoredFileInfo {
	checkFileSize(sandbox, file.data.length);
	ensureTable(sandbox);
	const info: StoredFileInfo = {
		id: randomBytes(20).toString('hex'),
		name: file.name,
		contentType: file.contentType || 'application/octet-stream',
		size: file.data.length,
		created: sandbox.now(),
	};
	sandbox.store.db
		.prepare(
			'INSERT INTO file_blobs (id, name, content_type, size, created, data) VALUES (?, ?, ?, ?, ?, ?)',
		)
		.run(info.id, info.name, info.contentType, info.size, info.created, file.data);
	return info;
}

export function getFile(sandbox: Sandbox, id: string): StoredFile | undefined {
	ensureTable(sandbox);
	const row = sandbox.store.db
		.prepare('SELECT id, name, content_type, size, created, data FROM file_blobs WHERE id = ?')
		.get(id) as
		| {
				id: string;
				name: string;
				content_type: string;
				size: number;
				created: number;
				data: Uint8Array;
		  }
		| undefined;
	if (!row) return undefined;
	return {
		id: row.id,
		name: row.name,
		contentType: row.content_type,
		size: Number(row.size),
		created: Number(row.created),
		data: Buffer.from(row.data),
	};
}

export function deleteFile(sandbox: Sandbox, id: string): boolean {
	ensureTable(sandbox);
	return (
		Number(sandbox.store.db.prepare('DELETE FROM file_blobs WHERE id = ?').run(id).changes) > 0
	);
}
