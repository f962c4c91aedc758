import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { attachBinaryFile, binaryPropertyField } from './shared';
import { crmRouting } from '../../../shared/transport';

/** UploadAttachment — POST /crm/{v}/{module}/{recordId}/Attachments, multipart part `file` */
export const operation: INodePropertyOptions = {
	name: 'Upload File',
	value: 'uploadFile',
	action: 'Upload a file attachment',
	description: 'Attach a file from an input binary field to a record',
	routing: crmRouting(
		{
			request: {
				method: 'POST',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/Attachments',
			},
			send: { preSend: [attachBinaryFile] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns = 'the upload result: its status and the new attachment id (under details)';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	binaryPropertyField,
	optionsCollection([
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description: "Name to store the file under (default: the binary's file name)",
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['uploadFile'] } },
	properties,
);
