import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputBinaryField } from '../../../shared/description/binaryOutputField';
import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { attachmentIdField, expectBytes, toBinary } from './shared';
import { crmRouting } from '../../../shared/transport';

/** DownloadAttachment — GET /crm/{v}/{module}/{recordId}/Attachments/{id} (bin) */
export const operation: INodePropertyOptions = {
	name: 'Download',
	value: 'download',
	action: 'Download an attachment',
	description: 'Download an attachment of a record into a binary field',
	routing: crmRouting({
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/Attachments/{{ toPathSegment($parameter.attachmentId) }}',
		},
		send: { preSend: [expectBytes] },
		output: { postReceive: [toBinary] },
	}),
};

export const returns =
	'the attachment file as binary data (property "data" by default) with its file name, MIME type and size';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	attachmentIdField,
	outputBinaryField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['download'] } },
	properties,
);
