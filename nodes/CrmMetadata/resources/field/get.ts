import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idOptions, moduleQueryField } from '../shared';
import { idPathSegment, requireDigits } from '../../../shared/records/validation';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** GetField — GET /crm/{v}/settings/fields/{id}?module= */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a field',
	description: 'Retrieve one field of a module by ID',
	routing: crmRouting(
		{
			request: { method: 'GET', url: `=/settings/fields/${idPathSegment('fieldId')}` },
			send: { preSend: [requireDigits('fieldId', 'Field ID')] },
		},
		{ rootProperty: 'fields', notFound: noneWithId('field', 'fieldId') },
	),
};

export const returns =
	'the field with its id, API name, label, data type and picklist values (an error when none has the ID)';

const properties: INodeProperties[] = [
	moduleQueryField,
	idOptions('Field Name or ID', 'fieldId', 'getFieldIds', ['module'], 'Field to retrieve'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['field'], operation: ['get'] } },
	properties,
);
