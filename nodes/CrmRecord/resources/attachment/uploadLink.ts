import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { crmRouting } from '../../../shared/transport';

/** UploadLinkAttachment — POST /crm/{v}/{module}/{recordId}/Attachments?attachmentUrl=…, no body */
export const operation: INodePropertyOptions = {
	name: 'Upload Link',
	value: 'uploadLink',
	action: 'Attach a link to a record',
	description: 'Attach a URL to a record',
	routing: crmRouting(
		{
			request: {
				method: 'POST',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/Attachments',
			},
		},
		{ rootProperty: 'data' },
	),
};

export const returns =
	'the result: its status and the id of the new link attachment (under details)';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	{
		displayName: 'Attachment URL',
		name: 'attachmentUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/brochure.pdf',
		routing: { send: { type: 'query', property: 'attachmentUrl' } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['uploadLink'] } },
	properties,
);
