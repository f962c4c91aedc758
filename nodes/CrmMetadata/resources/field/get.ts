import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { idOptions, moduleQueryField } from '../shared';

/** GetField — GET /crm/{v}/settings/fields/{id}?module= */
export const operation = getByIdOption({
	thing: 'field',
	path: '/settings/fields',
	idParameter: 'fieldId',
	rootProperty: 'fields',
	description: 'Retrieve one field of a module by ID',
});

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
