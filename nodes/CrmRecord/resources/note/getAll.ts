import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	optionsField,
	sendAsQuery,
	sortOrderOption,
} from '../../../shared/description/collections';
import {
	moduleSelect,
	recordIdField,
	returnAllLimit,
} from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { noteFieldsOption } from './shared';
import { crmRouting } from '../../../shared/transport';

/**
 * GetNotes — GET /crm/{v}/Notes; with "Of One Record": the record's notes,
 * GET /crm/{v}/{module}/{recordId}/Notes (GetRelatedRecords with the Notes list). Paged by the runner.
 */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many notes',
	description: 'List all notes, or the notes of one record',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '={{ $parameter.ofRecord ? "/" + toPathSegment($parameter.module) + "/" + toPathSegment($parameter.recordId) + "/Notes" : "/Notes" }}',
			},
		},
		{ rootProperty: 'data' },
	),
};

export const returns = 'one item per note, with its id, title, content and parent record';

const ofRecord = { show: { ofRecord: [true] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Of One Record',
		name: 'ofRecord',
		type: 'boolean',
		default: false,
		description: 'Whether to list only the notes of one record',
	},
	{ ...moduleSelect, displayOptions: ofRecord },
	{ ...recordIdField, displayOptions: ofRecord },
	...returnAllLimit(),
	optionsCollection(
		[
			noteFieldsOption,
			optionsField(
				'Sort By',
				'sort_by',
				{ 'Created Time': 'Created_Time', ID: 'id', 'Modified Time': 'Modified_Time' },
				'Modified_Time',
				{
					description: 'Sort field (API v2.1 only; v2 ignores it)',
					...sendAsQuery('sort_by'),
				},
			),
			sortOrderOption('Sort order (API v2.1 only; v2 ignores it)'),
		],
		{ show: { ofRecord: [false] } },
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['note'], operation: ['getAll'] } },
	properties,
);
