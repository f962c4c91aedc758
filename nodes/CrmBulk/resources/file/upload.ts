import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { multipartBody } from '../../../shared/formats/multipart';
import type { MultipartFile } from '../../../shared/formats/multipart';
import { crmRequest, runPerItem } from '../../../shared/transport';
import { listOf } from '../../../shared/records/validation';
import { LIMITS, megabytes } from '../shared';
import { getParameter } from '../../../shared/parameters';

/** UploadFiles — POST /crm/{v}/files?type=inline (multipart, part `file` repeated 1..10) */
export const operation: INodePropertyOptions = {
	name: 'Upload',
	value: 'upload',
	action: 'Upload files to the file store',
	description:
		'Store 1 to 10 binaries of an item in the shared file store and get their IDs, e.g. for mail attachments',
};

export const returns =
	'one item per uploaded file, with its id (e.g. for mail attachments) and name';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Fields',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'data, attachment',
		hint: 'Comma-separated names of the input binary fields to upload (1 to 10, at most 20 MB each)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['upload'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPerItem(this, async (itemIndex) => {
		const names = listOf(getParameter(this, 'binaryPropertyName', itemIndex));
		if (names.length < 1 || names.length > LIMITS.filesPerUpload) {
			throw new NodeOperationError(
				this.getNode(),
				`Input Binary Fields names ${names.length} fields; the file store takes 1 to 10 files per upload`,
				{
					itemIndex,
				},
			);
		}
		const files: MultipartFile[] = [];
		for (const name of names) {
			const meta = this.helpers.assertBinaryData(itemIndex, name);
			const data = await this.helpers.getBinaryDataBuffer(itemIndex, name);
			const fileName = meta.fileName || name;
			if (data.length > LIMITS.fileBytes) {
				throw new NodeOperationError(
					this.getNode(),
					`The file "${fileName}" is ${megabytes(data.length)}; the file store takes at most 20 MB per file`,
					{
						itemIndex,
					},
				);
			}
			files.push({ data, fileName, mimeType: meta.mimeType || 'application/octet-stream' });
		}
		const results = await crmRequest(this, {
			method: 'POST',
			path: '/files',
			qs: { type: 'inline' },
			body: multipartBody(files),
			itemIndex,
			itemListKey: 'data',
		});
		const failed = results.find((r) => r.status === 'error');
		if (failed) {
			throw new NodeOperationError(
				this.getNode(),
				`${String(failed.code)}: ${String(failed.message)}`,
				{ itemIndex, description: JSON.stringify(failed.details ?? {}) },
			);
		}
		return results.map((result) => {
			const details = (result.details ?? {}) as IDataObject;
			return { json: { id: details.id, name: details.name, ...result } };
		});
	});
}
