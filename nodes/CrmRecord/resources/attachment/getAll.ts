import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField, returnAllLimit } from '../../../shared/descriptions';
import { requireDigits } from '../../../shared/validation';

/** GetAttachments — GET /crm/{v}/{module}/{recordId}/Attachments, paged by the runner */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many attachments',
	description: 'List the attachments of a record',
	routing: {
		send: { preSend: [requireDigits('recordId', 'Record ID')] },
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/Attachments',
		},
	},
};

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	...returnAllLimit(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Fields',
				name: 'fields',
				type: 'string',
				default: '',
				placeholder: 'File_Name,Size',
				description: 'Comma-separated attachment fields to return (all when empty)',
				routing: { send: { type: 'query', property: 'fields', value: '={{ $value || undefined }}' } },
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['attachment'], operation: ['getAll'] } }, properties);

/** Key of the items in the response (docs/protocol.md §5.4). */
export const rootProperty = 'data';
