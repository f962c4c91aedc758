import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { getParameter } from '../parameters';

/** One file part of a multipart body (docs/protocol.md §3.3). */
export interface MultipartFile {
	data: Buffer;
	fileName: string;
	mimeType: string;
	/** part name; the service reads `file` */
	field?: string;
}

/** The one multipart builder: every file as its own part, in order. */
export function multipartBody(files: MultipartFile[]): FormData {
	const form = new FormData();
	for (const file of files) {
		form.append(
			file.field ?? 'file',
			new Blob([new Uint8Array(file.data)], { type: file.mimeType }),
			file.fileName,
		);
	}
	return form;
}

/**
 * Puts a multipart body on a routed request. The JSON Content-Type of the node's request defaults is
 * dropped so that the body sets its own with the boundary; `json: false` where the caller wants it.
 */
export function setMultipartBody(
	request: IHttpRequestOptions,
	files: MultipartFile[],
	options: { json?: false } = {},
): IHttpRequestOptions {
	const headers = { ...(request.headers ?? {}) } as IDataObject;
	for (const key of Object.keys(headers))
		if (key.toLowerCase() === 'content-type') delete headers[key];
	request.headers = headers;
	request.body = multipartBody(files) as unknown as IHttpRequestOptions['body'];
	if (options.json === false) request.json = false;
	return request;
}

/**
 * preSend of a routed photo upload: the input binary named by parameter `binaryPropertyName` as the
 * multipart part `file` (§3.3), named `fallbackName` when the binary has no file name.
 */
export function binaryPhotoPreSend(fallbackName: string) {
	return async function photoUploadPreSend(
		this: IExecuteSingleFunctions,
		request: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const property = getParameter(
			this,
			'binaryPropertyName',
			this.getItemIndex(),
			'data',
		) as string;
		const meta = this.helpers.assertBinaryData(property);
		const buffer = await this.helpers.getBinaryDataBuffer(property);
		return setMultipartBody(
			request,
			[{ data: buffer, fileName: meta.fileName ?? fallbackName, mimeType: meta.mimeType }],
			{ json: false },
		);
	};
}
