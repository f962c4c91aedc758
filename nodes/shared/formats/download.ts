// The file of a binary download response (attachments, photos, bulk results, the file store): its
// bytes, its name from Content-Disposition and its type from Content-Type (docs/protocol.md §3.4).
import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import { fileNameFromDisposition } from './contentDisposition';

/** A response header by name, whatever its case; the first value of a repeated one. */
function headerOf(response: IN8nHttpFullResponse, name: string): string | undefined {
	const headers = (response.headers ?? {}) as IDataObject;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	const value = key ? headers[key] : undefined;
	return Array.isArray(value)
		? String(value[0])
		: value === undefined || value === null
			? undefined
			: String(value);
}

/** The bytes of a binary download response. */
function bodyBuffer(response: IN8nHttpFullResponse): Buffer {
	const body = response.body as unknown;
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
	if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body ?? ''));
}

/** The file of a binary download response: bytes, name (Content-Disposition) and MIME type (Content-Type). */
export function responseFile(
	response: IN8nHttpFullResponse,
	fallbackName: string,
	fallbackMimeType: string,
): { data: Buffer; fileName: string; mimeType: string } {
	return {
		data: bodyBuffer(response),
		fileName: fileNameFromDisposition(headerOf(response, 'content-disposition')) ?? fallbackName,
		mimeType: (headerOf(response, 'content-type') ?? fallbackMimeType).split(';')[0].trim(),
	};
}
