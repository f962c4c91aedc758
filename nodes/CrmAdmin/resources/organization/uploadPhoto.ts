import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyField } from '../../../shared/description/binaryInputField';
import { binaryPhotoPreSend } from '../../../shared/formats/multipart';
import { writeResults } from '../shared';
import { crmRouting } from '../../../shared/transport';

/** UploadOrganizationPhoto — POST /crm/{v}/org/photo (multipart part `file`) */
export const operation: INodePropertyOptions = {
	name: 'Upload Photo',
	value: 'uploadPhoto',
	action: 'Upload the organization photo',
	description: 'Set the organization logo from an input binary',
	routing: crmRouting({
		request: { method: 'POST', url: '/org/photo' },
		// the input binary as the multipart part `file` (§3.3); the service accepts images only
		send: { preSend: [binaryPhotoPreSend('logo')] },
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
