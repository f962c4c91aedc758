import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyField } from '../../../shared/description/binaryInputField';
import { setMultipartBody } from '../../../shared/formats/multipart';
import { writeResults } from '../shared';
import { getParameter } from '../../../shared/parameters';
import { crmRouting } from '../../../shared/transport';

/** The input binary as the multipart part `file` (§3.3); the service accepts images only. */
async function orgPhotoPreSend(
	this: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const property = getParameter(this, 'binaryPropertyName', this.getItemIndex(), 'data') as string;
	const meta = this.helpers.assertBinaryData(property);
	const buffer = await this.helpers.getBinaryDataBuffer(property);
	return setMultipartBody(
		request,
		[{ data: buffer, fileName: meta.fileName ?? 'logo', mimeType: meta.mimeType }],
		{ json: false },
	);
}

/** UploadOrganizationPhoto — POST /crm/{v}/org/photo (multipart part `file`) */
export const operation: INodePropertyOptions = {
	name: 'Upload Photo',
	value: 'uploadPhoto',
	action: 'Upload the organization photo',
	description: 'Set the organization logo from an input binary',
	routing: crmRouting({
		request: { method: 'POST', url: '/org/photo' },
		send: { preSend: [orgPhotoPreSend] },
		output: { postReceive: [writeResults] },
	}),
};

export const returns = 'the status and message of the upload';

const properties: INodeProperties[] = [
	binaryPropertyField('Binary field holding the image (JPEG, PNG, GIF, BMP or WebP)'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['organization'], operation: ['uploadPhoto'] } },
	properties,
);
