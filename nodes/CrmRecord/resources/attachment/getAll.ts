import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	moduleSelect,
	recordIdField,
	returnAllLimit,
} from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { requireDigits } from '../../../shared/records/validation';
import { fieldsTextOption } from '../shared';
import { crmRouting } from '../../../shared/transport';

/** GetAttachments — GET /crm/{v}/{module}/{recordId}/Attachments, paged by the runner */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many attachments',
	description: 'List the attachments of a record',
	routing: crmRouting(
		{
			send: { preSend: [requireDigits('recordId', 'Record ID')] },
			request: {
				method: 'GET',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/Attachments',
			},
		},
		{ rootProperty: 'data' },
	),
};

export const returns =
	'one item per attachment of the record, with its id, file name, size and owner';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	...returnAllLimit(),
	optionsCollection([
		fieldsTextOption(
			'File_Name,Size',
			'Comma-separated attachment fields to return (all when empty)',
		),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['getAll'] } },
	properties,
);
