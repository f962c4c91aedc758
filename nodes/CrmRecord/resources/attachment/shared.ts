import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { recordPicker } from '../../../shared/description/properties';
import { responseFile } from '../../../shared/formats/download';
import { setMultipartBody } from '../../../shared/formats/multipart';
import { getParameter } from '../../../shared/parameters';

/** Per-file upload limit of the service (docs/protocol.md §6: 20 MB). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const attachmentIdField: INodeProperties = recordPicker({
	displayName: 'Attachment',
	name: 'attachmentId',
	description: "The attachment: from the record's attachments (by file name), or by ID",
	searchListMethod: 'searchAttachments',
	byUrl: false,
	placeholder: '4876876000000611500',
});

export const binaryPropertyField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field containing the file to upload',
};

/** preSend: the input binary as multipart part `file` (docs/protocol.md §3.3), size checked first. */
export async function attachBinaryFile(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const property = getParameter(this, 'binaryPropertyName', itemIndex) as string;
	const meta = this.helpers.assertBinaryData(property);
	const buffer = await this.helpers.getBinaryDataBuffer(property);
	const fileName =
		(getParameter(this, 'options.fileName', itemIndex, '') as string) || meta.fileName || 'file';
	if (buffer.length > MAX_FILE_BYTES) {
		throw new NodeOperationError(
			this.getNode(),
			`The file "${fileName}" is ${(buffer.length / 1024 / 1024).toFixed(1)} MB; attachments may be at most 20 MB (${MAX_FILE_BYTES} bytes)`,
			{ itemIndex },
		);
	}
	return setMultipartBody(requestOptions, [
		{ data: buffer, fileName, mimeType: meta.mimeType || 'application/octet-stream' },
	]);
}

/** preSend: downloads answer raw bytes. */
export async function expectBytes(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.encoding = 'arraybuffer';
	requestOptions.json = false;
	return requestOptions;
}

/** postReceive: the downloaded bytes as a binary item with the served file name and MIME type. */
export async function toBinary(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const property = getParameter(this, 'binaryPropertyName', this.getItemIndex(), 'data') as string;
	const {
		data: buffer,
		fileName,
		mimeType,
	} = responseFile(response, 'file', 'application/octet-stream');
	const binary = await this.helpers.prepareBinaryData(buffer, fileName, mimeType);
	return [
		{ json: { fileName, mimeType, fileSize: buffer.length }, binary: { [property]: binary } },
	];
}
