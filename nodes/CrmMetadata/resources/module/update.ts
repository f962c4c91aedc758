import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { optionsField, updateFieldsCollection } from '../../../shared/description/collections';
import { moduleSelect } from '../../../shared/description/properties';
import { getParameter } from '../../../shared/parameters';
import { bodyPreSend, crmRouting } from '../../../shared/transport';

/** Module labels are at most 25 characters (docs/protocol.md §5.7, sandbox INVALID_DATA maximum_length 25). */
const LABEL_MAX = 25;

/** preSend: the one-item `modules` body of the update, validated before sending. */
const moduleBody = bodyPreSend(function (itemIndex) {
	const fields = getParameter(this, 'updateFields', itemIndex, {}) as IDataObject;
	const item: IDataObject = {};
	for (const key of ['singular_label', 'plural_label'] as const) {
		const value = fields[key];
		if (value === undefined || value === '') continue;
		const text = String(value);
		if (text.length > LABEL_MAX) {
			throw new NodeOperationError(
				this.getNode(),
				`"${key}" may be at most ${LABEL_MAX} characters, got ${text.length}`,
				{ itemIndex },
			);
		}
		item[key] = text;
	}
	for (const key of ['sequence_number', 'visibility'] as const) {
		if (fields[key] !== undefined && fields[key] !== '') item[key] = Number(fields[key]);
	}
	if (Object.keys(item).length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'Nothing to update: add at least one field under "Update Fields"',
			{ itemIndex },
		);
	}
	return { modules: [item] };
});

/**
 * UpdateModuleByAPIName — PUT /crm/{v}/settings/modules/{apiName}
 * UpdateModuleById — PUT /crm/{v}/settings/modules/{id}
 */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a module',
	description: 'Change the labels, order or visibility of a module by API name or ID',
	routing: crmRouting(
		{
			request: {
				method: 'PUT',
				url: '=/settings/modules/{{ toPathSegment($parameter.identifyBy === "id" ? $parameter.moduleId : $parameter.module) }}',
			},
			send: { preSend: [moduleBody] },
		},
		{ rootProperty: 'modules' },
	),
};

export const returns =
	'the outcome of the update: its status and message, with the id and API name of the module';

const properties: INodeProperties[] = [
	optionsField(
		'Identify Module By',
		'identifyBy',
		[
			{ name: 'API Name', value: 'apiName', description: 'UpdateModuleByAPIName' },
			{ name: 'ID', value: 'id', description: 'UpdateModuleById' },
		],
		'apiName',
	),
	{ ...moduleSelect, displayOptions: { show: { identifyBy: ['apiName'] } } },
	{
		displayName: 'Module ID',
		name: 'moduleId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '4876876000000002175',
		description: 'Numeric ID of the module',
		displayOptions: { show: { identifyBy: ['id'] } },
	},
	updateFieldsCollection([
		{
			displayName: 'Plural Label',
			name: 'plural_label',
			type: 'string',
			default: '',
			description: 'Plural name shown in the CRM (at most 25 characters)',
		},
		{
			displayName: 'Sequence Number',
			name: 'sequence_number',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'Position of the module tab',
		},
		{
			displayName: 'Singular Label',
			name: 'singular_label',
			type: 'string',
			default: '',
			description: 'Singular name shown in the CRM (at most 25 characters)',
		},
		{
			displayName: 'Visibility',
			name: 'visibility',
			type: 'options',
			options: [
				{ name: 'Visible', value: 1 },
				{ name: 'Hidden', value: 0 },
			],
			default: 1,
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['module'], operation: ['update'] } },
	properties,
);
