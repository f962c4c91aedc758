import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { recordByProperties } from './shared';
import { externalHeader, readOptions, validateRecordId } from './hooks';
import type { NotFound } from '../../../shared/transport';
import { getParameter } from '../../../shared/parameters';
import { crmRouting } from '../../../shared/transport';

/** A missing ID answers 204 (docs/protocol.md §5.1, §3.7). */
const notFound: NotFound = function () {
	const external = getParameter(this, 'getBy', this.getItemIndex(), 'id') === 'externalId';
	const id = pickedValue(this, external ? 'externalValue' : 'recordId');
	return `No ${pickedValue(this, 'module')} record with ${external ? 'external ID' : 'ID'} ${id}`;
};

/** GetRecord — GET /crm/{v}/{module}/{id}; GetRecordUsingExternalID — GET /crm/{v}/{module}/{extValue} with X-EXTERNAL */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a record',
	description: 'Retrieve one record by ID or external ID',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				// an empty ID (e.g. from an expression) must reach the preSend checks, which name the
				// parameter: toPathSegment("") would throw n8n's generic "Invalid identifier" first
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment(String($parameter.getBy === "externalId" ? $parameter.externalValue : $parameter.recordId).trim() || "-") }}',
			},
			send: { preSend: [validateRecordId, externalHeader, readOptions] },
		},
		{ rootProperty: 'data', notFound },
	),
};

export const returns =
	'the record with its id and field values (an error when no record has the ID)';

export const fieldsOption: INodeProperties = {
	displayName: 'Field Names or IDs',
	name: 'fields',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getReadableFields', loadOptionsDependsOn: ['module'] },
	default: [],
	description:
		'Fields to return (all when empty). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	routing: {
		send: { type: 'query', property: 'fields', value: '={{ $value.join(",") || undefined }}' },
	},
};

export const modifiedSinceOption: INodeProperties = {
	displayName: 'Modified Since',
	name: 'ifModifiedSince',
	type: 'dateTime',
	default: '',
	description:
		'Only when changed after this time (If-Modified-Since); nothing is returned when unchanged',
};

const properties: INodeProperties[] = [
	{
		displayName: 'To look a record up by e-mail, use Search',
		name: 'searchNotice',
		type: 'notice',
		default: '',
	},
	moduleSelect,
	...recordByProperties('getBy', 'Get', 'Value of the external-ID field of the record'),
	optionsCollection([fieldsOption, modifiedSinceOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['get'] } },
	properties,
);
