/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// Request body parsing: JSON (with or without Content-Type, §3.1), urlencoded forms (OAuth),
// multipart/form-data with `file` parts (§3.3).
import type { IncomingMessage } from 'node:http';

import { HttpError } from './errors.ts';
import type { FilePart } from './router.ts';

export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > limit) {
			throw new HttpError('FILE_SIZE_MORE_THAN_ALLOWED_SIZE', { limit }, 'request body is larger than allowed');
		}
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
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
export function mimeFromName(name: string): string {
	const ext = name.toLowerCase().split('.').pop() ?? '';
	return MIME_BY_EXT[ext] ?? 'application/octet-stream';
}

/** Parses multipart/form-data into file parts and text fields. */
export function parseMultipart(body: Buffer, contentType: string): { files: FilePart[]; fields: Record<string, string> } {
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
				const safeName = filename.split(/[\\/]/).pop() || 'file';
				const contentTypeOfPart =
					!partType || partType === 'application/octet-stream' ? mimeFromName(safeName) : partType;
				files.push({ field: name, filename: safeName, contentType: contentTypeOfPart, data: Buffer.from(data) });
			} else {
				fields[name] = data.toString('utf8');
			}
		}
		pos = next;
	}
	return { files, fields };
}

/** `Content-Disposition` for downloads: plain form for ASCII names, RFC 5987 otherwise (§3.4). */
export function contentDisposition(fileName: string): string {
	 
	if (/^[\x20-\x7e]*$/.test(fileName) && !fileName.includes('"')) return `attachment; filename="${fileName}"`;
	return `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
