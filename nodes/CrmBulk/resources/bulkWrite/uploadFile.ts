import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bulkWriteZip, orgXgid, uploadBulkWriteZip } from '../shared';
import { runPerItem } from '../../../shared/transport';
import { getParameter } from '../../../shared/parameters';

/** UploadFile — POST {upload_domain}/crm/{v}/upload (multipart, headers `feature: bulk-write`, `X-CRM-ORG`) */
export const operation: INodePropertyOptions = {
	name: 'Upload File',
	value: 'uploadFile',
	action: 'Upload a bulk write file',
	description: 'Upload a zip or a CSV (packed into a zip) for a bulk write job and get its file ID',
};

export const returns =
	'the uploaded file with its file id (for Create Job), file name and number of records';

export const inputBinaryField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field holding the CSV or zip file',
};

export const fileFormatField: INodeProperties = {
	displayName: 'File Format',
	name: 'fileFormat',
	type: 'options',
	options: [
		{
			name: 'Auto-Detect',
			value: 'auto',
			description: 'A zip when the bytes are a zip archive, otherwise a CSV',
		},
		{ name: 'CSV', value: 'csv', description: 'A CSV file; the node packs it into a zip' },
		{ name: 'Zip', value: 'zip', description: 'A zip holding exactly one CSV file' },
	],
	default: 'auto',
	description: 'At most 25,000 records per CSV and 25 MB per zip',
};

const properties: INodeProperties[] = [inputBinaryField, fileFormatField];

export const description = updateDisplayOptions(
	{ show: { resource: ['bulkWrite'], operation: ['uploadFile'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	let xgid: string | undefined; // GetOrganization once per execution
	return await runPerItem(this, async (itemIndex) => {
		const property = getParameter(this, 'binaryPropertyName', itemIndex) as string;
		const format = getParameter(this, 'fileFormat', itemIndex, 'auto') as 'auto' | 'csv' | 'zip';
		const { zip, fileName, rows } = await bulkWriteZip.call(this, itemIndex, property, format);
		xgid ??= await orgXgid.call(this, itemIndex);
		const body = await uploadBulkWriteZip.call(this, zip, fileName, xgid, itemIndex);
		const details = (body.details ?? {}) as IDataObject;
		return [{ json: { file_id: details.file_id, fileName, records: rows, ...body } }];
	});
}
