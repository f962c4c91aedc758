import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noteFieldsOption, noteIdField } from './shared';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { requireDigits } from '../../../shared/records/validation';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** GetNote — GET /crm/{v}/Notes/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a note',
	description: 'Retrieve one note by ID',
	routing: crmRouting(
		{
			send: { preSend: [requireDigits('noteId', 'Note ID')] },
			request: {
				method: 'GET',
				url: '=/Notes/{{ toPathSegment($parameter.noteId) }}',
			},
		},
		{ rootProperty: 'data', notFound: noneWithId('note', 'noteId') },
	),
};

export const returns =
	'the note with its id, title, content and parent record (an error when no note has the ID)';

const properties: INodeProperties[] = [noteIdField, optionsCollection([noteFieldsOption])];

export const description = updateDisplayOptions(
	{ show: { resource: ['note'], operation: ['get'] } },
	properties,
);
