import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyField } from '../../../shared/description/binaryInputField';
import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { validateRecordId } from './hooks';
import { binaryPhotoPreSend } from '../../../shared/formats/multipart';
import { crmRouting } from '../../../shared/transport';

/** UploadPhoto — POST /crm/{v}/{module}/{id}/photo (multipart part `file`) */
export const operation: INodePropertyOptions = {
	name: 'Upload Photo',
	value: 'uploadPhoto',
	action: 'Upload a record photo',
	description: 'Set the photo of a record from an input binary',
	routing: crmRouting({
		request: {
			method: 'POST',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment(String($parameter.recordId).trim()) }}/photo',
		},
		send: { preSend: [validateRecordId, binaryPhotoPreSend('photo')] },
	}),
};

export const returns = 'the result: its status and message';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	binaryPropertyField('Binary field holding the image (JPEG, PNG, GIF, BMP or WebP)'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['uploadPhoto'] } },
	properties,
);
