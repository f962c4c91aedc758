import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/descriptions';
import { externalHeader, readOptions, validateRecordId } from './hooks';

/** GetRecord — GET /crm/{v}/{module}/{id}; GetRecordUsingExternalID — GET /crm/{v}/{module}/{extValue} with X-EXTERNAL */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a record',
	description: 'Retrieve one record by ID or external ID (GetRecord, GetRecordUsingExternalID)',
	routing: {
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment(String($parameter.getBy === "externalId" ? $parameter.externalValue : $parameter.recordId).trim()) }}',
		},
		send: { preSend: [validateRecordId, externalHeader, readOptions] },
	},
};

export const fieldsOption: INodeProperties = {
	displayName: 'Field Names or IDs',
	name: 'fields',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getReadableFields', loadOptionsDependsOn: ['module'] },
	default: [],
	description:
		'Fields to return (all when empty). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	routing: { send: { type: 'query', property: 'fields', value: '={{ $value.join(",") || undefined }}' } },
};

export const modifiedSinceOption: INodeProperties = {
	displayName: 'Modified Since',
	name: 'ifModifiedSince',
	type: 'dateTime',
	default: '',
	description: 'Only when changed after this time (If-Modified-Since); nothing is returned when unchanged',
};

const properties: INodeProperties[] = [
	moduleSelect,
	{
		displayName: 'Get By',
		name: 'getBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'ID', value: 'id' },
			{ name: 'External ID', value: 'externalId', description: 'A field of the module marked as external ID (X-EXTERNAL)' },
		],
		default: 'id',
	},
	{ ...recordIdField, displayOptions: { show: { getBy: ['id'] } } },
	{
		displayName: 'External ID Field Name or ID',
		name: 'externalField',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getExternalIdFields', loadOptionsDependsOn: ['module'] },
		default: '',
		required: true,
		description:
			'External-ID field of the module. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { getBy: ['externalId'] } },
	},
	{
		displayName: 'External ID Value',
		name: 'externalValue',
		type: 'string',
		default: '',
		required: true,
		description: 'Value of the external-ID field of the record',
		displayOptions: { show: { getBy: ['externalId'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [fieldsOption, modifiedSinceOption],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['get'] } }, properties);
