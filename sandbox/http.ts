// Request body parsing: JSON (with or without Content-Type, §3.1), urlencoded forms (OAuth),
// multipart/form-data with `file` parts (§3.3).
import type { IncomingMessage } from 'node:http';

import { HttpError } from './errors.ts';
import type { FilePart } from './router.ts';

/** The client closed the connection before its body was complete. */
export class RequestAborted extends Error {}

/**
 * Reads the whole body, at most `limit` bytes; `onBytes` counts what was read. Over the limit it
 * rejects with 413 and keeps discarding what still arrives (nothing is buffered, and the socket is
 * left for the server to close after the answer: breaking out of the stream would destroy it
 * before the 413 is written).
 */
export async function readBody(
	req: IncomingMessage,
	limit: number,
	onBytes: (n: number) => void = () => {},
): Promise<Buffer> {
	return await new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		const settle = (error?: unknown) => {
			if (settled) return;
			settled = true;
			if (error) reject(error);
			else resolve(Buffer.concat(chunks));
		};
		req.on('data', (chunk: Buffer) => {
			if (settled) return;
			size += chunk.length;
			onBytes(chunk.length);
			if (size > limit) {
				chunks.length = 0;
				settle(
					new HttpError(
						'FILE_SIZE_MORE_THAN_ALLOWED_SIZE',
						{ limit },
						'request body is larger than allowed',
					),
				);
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => settle());
		req.on('error', () => settle(new RequestAborted('request aborted')));
		req.on('close', () => settle(req.complete ? undefined : new RequestAborted('request aborted')));
	});
}

export function isJsonContentType(contentType: string | undefined): boolean {
	if (!contentType) return true;
	const type = contentType.split(';')[0].trim().toLowerCase();
	return type === 'application/json' || type === 'text/plain' || type.endsWith('+json');
}

const MIME_BY_EXT: Record<string, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	gif: 'image/gif',
	webp: 'image/webp',
	bmp: 'image/bmp',
	svg: 'image/svg+xml',
	pdf: 'application/pdf',
	txt: 'text/plain',
	csv: 'text/csv',
	json: 'application/json',
	zip: 'application/zip',
	ics: 'text/calendar',
	html: 'text/html',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	xls: 'application/vnd.ms-excel',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** MIME type from a file name extension, for parts sent without a useful type (§3.3). */
function mimeFromName(name: string): string {
	const ext = name.toLowerCase().split('.').pop() ?? '';
	return MIME_BY_EXT[ext] ?? 'application/octet-stream';
}

/** Parses multipart/form-data into file parts and text fields. */
export function parseMultipart(
	body: Buffer,
	contentType: string,
): { files: FilePart[]; fields: Record<string, string> } {
	const boundaryMatch = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	if (!boundaryMatch) throw HttpError.invalidData({}, 'the request does not contain any file');
	const boundary = Buffer.from(`--${(boundaryMatch[1] ?? boundaryMatch[2]).trim()}`);
	const files: FilePart[] = [];
	const fields: Record<string, string> = {};
	let pos = body.indexOf(boundary);
	while (pos !== -1) {
		let start = pos + boundary.length;
		if (body.slice(start, start + 2).toString() === '--') break;
		if (body.slice(start, start + 2).toString() === '\r\n') start += 2;
		const next = body.indexOf(boundary, start);
		if (next === -1) break;
		const part = body.slice(start, next - 2); // strip the CRLF before the boundary
		const headerEnd = part.indexOf('\r\n\r\n');
		if (headerEnd !== -1) {
			const headerText = part.slice(0, headerEnd).toString('utf8');
			const data = part.slice(headerEnd + 4);
			const disposition = /content-disposition:([^\r\n]*)/i.exec(headerText)?.[1] ?? '';
			const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '';
			const filenameStar = /filename\*=UTF-8''([^;\r\n]+)/i.exec(disposition)?.[1];
			const filenamePlain = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
			let filename = filenamePlain;
			if (filenameStar) {
				try {
					filename = decodeURIComponent(filenameStar);
				} catch {
					throw HttpError.invalidData({}, 'the file name is not valid percent-encoded UTF-8');
				}
			}
			const partType = /content-type:\s*([^\r\n]*)/i.exec(headerText)?.[1]?.trim();
			if (filename !== undefined) {
				const safeName = safeFileName(filename);
				const contentTypeOfPart =
					!partType || partType === 'application/octet-stream' ? mimeFromName(safeName) : partType;
				files.push({
					field: name,
					filename: safeName,
					contentType: contentTypeOfPart,
					data: Buffer.from(data),
				});
			} else {
				fields[name] = data.toString('utf8');
			}
		}
		pos = next;
	}
	return { files, fields };
}

const FILE_NAME_MAX = 255;

/**
 * A stored file name: the last path segment, control characters (C0, DEL, C1) removed, at most
 * 255 characters (the extension is kept when the name is cut); `file` when nothing is left.
 */
export function safeFileName(name: string): string {
	const clean = (name.split(/[\\/]/).pop() ?? '')
		// eslint-disable-next-line no-control-regex
		.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
		// a lone surrogate cannot be encoded as UTF-8 (encodeURIComponent would throw)
		.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
		.trim();
	const chars = [...clean];
	if (chars.length === 0) return 'file';
	if (chars.length <= FILE_NAME_MAX) return clean;
	const dot = clean.lastIndexOf('.');
	const ext = dot > 0 ? [...clean.slice(dot)] : [];
	const keep = ext.length > 0 && ext.length <= 16 ? ext : [];
	return chars.slice(0, FILE_NAME_MAX - keep.length).join('') + keep.join('');
}

/** RFC 5987 value characters (attr-char); everything else is percent-encoded as UTF-8. */
function encodeRfc5987(value: string): string {
	return encodeURIComponent(value).replace(
		/['()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

/**
 * `Content-Disposition` for downloads (§3.4, RFC 6266): `filename="…"` for printable ASCII names
 * without quotes or backslash (a client reading the text after the last `'` must not be misled),
 * `filename*=UTF-8''…` otherwise. Always a valid header value, even for
 * names stored before file names were cleaned.
 */
export function contentDisposition(fileName: string): string {
	const name = safeFileName(fileName);
	if (/^[\x20-\x7e]*$/.test(name) && !/["'\\]/.test(name)) return `attachment; filename="${name}"`;
	return `attachment; filename*=UTF-8''${encodeRfc5987(name)}`;
}
