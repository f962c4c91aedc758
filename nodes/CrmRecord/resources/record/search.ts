import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, returnAllLimit } from '../../../shared/description/properties';
import {
	allOrAnyOption,
	conditionsCollection,
	conditionValues,
} from '../../../shared/description/collections';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { fieldsOption } from './get';
import { triState } from './getAll';
import { searchPreSend } from './hooks';
import { crmRouting } from '../../../shared/transport';

/** SearchRecords — GET /crm/{v}/{module}/search, paged by its request runner (crmRouting) */
export const operation: INodePropertyOptions = {
	name: 'Search',
	value: 'search',
	action: 'Search records',
	description: 'Find records by criteria, email, phone or word',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/{{ toPathSegment($parameter.module) }}/search',
			},
			send: { preSend: [searchPreSend] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns = 'one item per matching record, with its id and field values';

/** "Search By" and its inputs, shared with Count (which may count all). */
export function searchByProperties(optional: boolean): INodeProperties[] {
	const searchBy: INodeProperties = {
		displayName: 'Search By',
		name: 'searchBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Conditions', value: 'criteria', description: 'Build the criteria from conditions' },
			{
				name: 'Criteria Text',
				value: 'rawCriteria',
				description: 'Write the criteria, e.g. ((Last_Name:equals:Smith)and(City:equals:Austin))',
			},
			{ name: 'Email', value: 'email', description: 'Any email field equals the value' },
			{ name: 'Phone', value: 'phone', description: 'Any phone field contains the value' },
			{ name: 'Word', value: 'word', description: 'Any text field contains the value' },
		],
		default: 'criteria',
	};
	return [
		optional
			? {
					...searchBy,
					options: [{ name: 'Nothing (All Records)', value: 'none' }, ...(searchBy.options ?? [])],
					default: 'none',
				}
			: searchBy,
		allOrAnyOption('Combine', 'combine', { show: { searchBy: ['criteria'] } }),
		conditionsCollection(
			'At most 10 conditions',
			{ show: { searchBy: ['criteria'] } },
			conditionValues('getFields', ['module']),
		),
		{
			displayName: 'Criteria',
			name: 'criteria',
			type: 'string',
			default: '',
			required: true,
			placeholder: '((Last_Name:equals:Smith)and(Lead_Source:equals:Web))',
			description: 'Search criteria as the CRM writes them; escape ( ) , inside values with \\',
			displayOptions: { show: { searchBy: ['rawCriteria'] } },
		},
		{
			displayName: 'Value',
			name: 'searchValue',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { searchBy: ['email', 'phone', 'word'] } },
		},
	];
}

const properties: INodeProperties[] = [
	moduleSelect,
	...searchByProperties(false),
	...returnAllLimit(),
	optionsCollection([
		triState('approved', 'Approved', 'approved'),
		triState('converted', 'Converted', 'converted'),
		fieldsOption,
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['search'] } },
	properties,
);
