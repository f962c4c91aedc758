// What the CRM makes of request bodies and file names: JSON with or without Content-Type (§3.1),
// multipart/form-data with `file` parts (§3.3; Dicer splits the parts, the rules for names and types
// are the CRM's), stored file names and Content-Disposition for downloads (§3.4).
import { Dicer } from '@fastify/busboy';

import { HttpError } from './errors.ts';
import type { FilePart } from './router.ts';

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

interface RawPart {
	headers: Record<string, string[]>;
	data: Buffer;
}

/** The parts of a multipart body, split by Dicer (the multipart reader of busboy); an unfinished part is left out. */
async function multipartParts(body: Buffer, boundary: string): Promise<RawPart[]> {
	const parts: Array<Promise<RawPart | undefined>> = [];
	await new Promise<void>((resolve) => {
		const dicer = new Dicer({ boundary });
		dicer.on('part', (part) => {
			parts.push(
				new Promise((done) => {
					let headers: Record<string, string[]> = {};
					const chunks: Buffer[] = [];
					let broken = false;
					part.on('header', (h) => (headers = h as Record<string, string[]>));
					part.on('data', (chunk: Buffer) => chunks.push(chunk));
					part.on('error', () => (broken = true));
					part.on('end', () => done(broken ? undefined : { headers, data: Buffer.concat(chunks) }));
				}),
			);
		});
		// a body that ends before its closing boundary: the complete parts count, as before
		dicer.on('error', () => {});
		dicer.on('finish', () => resolve());
		dicer.end(body);
	});
	return (await Promise.all(parts)).filter((p) => p !== undefined);
}

/** A part header's first value as the client wrote it (Dicer reads header bytes as latin1). */
function partHeader(part: RawPart, name: string): string | undefined {
	const value = part.headers[name]?.[0];
	return value === undefined ? undefined : Buffer.from(value, 'latin1').toString('utf8');
}

/** Parses multipart/form-data into file parts and text fields (§3.3). */
export async function parseMultipart(
	body: Buffer,
	contentType: string,
): Promise<{ files: FilePart[]; fields: Record<string, string> }> {
	const boundaryMatch = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	if (!boundaryMatch) throw HttpError.invalidData({}, 'the request does not contain any file');
	const files: FilePart[] = [];
	const fields: Record<string, string> = {};
	for (const part of await multipartParts(body, (boundaryMatch[1] ?? boundaryMatch[2]).trim())) {
		const disposition = partHeader(part, 'content-disposition') ?? '';
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
		const partType = partHeader(part, 'content-type')?.trim();
		if (filename !== undefined) {
			const safeName = safeFileName(filename);
			// a part without a useful type is typed from its file name
			const type =
				!partType || partType === 'application/octet-stream' ? mimeFromName(safeName) : partType;
			files.push({ field: name, filename: safeName, contentType: type, data: part.data });
		} else {
			fields[name] = part.data.toString('utf8');
		}
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
