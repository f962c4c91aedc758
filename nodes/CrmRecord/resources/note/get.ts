import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noteIdField } from './shared';
import { requireDigits } from '../../../shared/validation';
import { noneWithId } from '../../../shared/transport';

/** GetNote — GET /crm/{v}/Notes/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a note',
	description: 'Retrieve one note by ID',
	routing: {
		send: { preSend: [requireDigits('noteId', 'Note ID')] },
		request: {
			method: 'GET',
			url: '=/Notes/{{ toPathSegment($parameter.noteId) }}',
		},
	},
};

const properties: INodeProperties[] = [
	noteIdField,
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
				placeholder: 'Note_Title,Note_Content',
				description: 'Comma-separated field API names to return (all when empty)',
				routing: { send: { type: 'query', property: 'fields', value: '={{ $value || undefined }}' } },
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['note'], operation: ['get'] } }, properties);

/** Key of the items in the response (docs/protocol.md §5.3). */
export const rootProperty = 'data';

/** A missing ID: "No note with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('note', 'noteId');
