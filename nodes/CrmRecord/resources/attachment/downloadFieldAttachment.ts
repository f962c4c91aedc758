import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputBinaryField } from '../../../shared/description/binaryOutputField';
import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { crmRouting, requireV21 } from '../../../shared/transport';
import { expectBytes, toBinary } from './shared';

/** GetFieldAttachments — GET /crm/{v}/{module}/{recordId}/actions/download_fields_attachment (bin, v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Download Field Attachment',
	value: 'downloadFieldAttachment',
	action: 'Download a field attachment',
	description: 'Download the file of a file-upload field of a record',
	routing: crmRouting({
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/download_fields_attachment',
		},
		send: { preSend: [requireV21('GetFieldAttachments'), expectBytes] },
		output: { postReceive: [toBinary] },
	}),
};

export const returns =
	'the file of the field as binary data (property "data" by default) with its file name, MIME type and size';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	{
		displayName: 'Field Attachment ID',
		name: 'fieldsAttachmentId',
		type: 'string',
		default: '',
		required: true,
		description: "ID of the file in the file-upload field (the field value's attachment ID)",
		routing: { send: { type: 'query', property: 'fields_attachment_id' } },
	},
	outputBinaryField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['downloadFieldAttachment'] } },
	properties,
);
