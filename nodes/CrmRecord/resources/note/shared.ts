import type { INodeProperties } from 'n8n-workflow';

import { recordPicker } from '../../../shared/description/properties';
import { fieldsTextOption } from '../shared';
import type { IdListTarget } from '../shared';

export const noteIdField: INodeProperties = recordPicker({
	displayName: 'Note',
	name: 'noteId',
	description: 'The note: from the list (title and record), or by ID',
	searchListMethod: 'searchNotes',
	byUrl: false,
	placeholder: '4876876000000611404',
});

/** `fields` option of Get and Get Many. */
export const noteFieldsOption = fieldsTextOption(
	'Note_Title,Note_Content',
	'Comma-separated field API names to return (all when empty)',
);

/** Notes per create/update request and IDs per delete request (docs/protocol.md §6). */
export const NOTES_PER_REQUEST = 100;

/** Update and Delete: PUT /crm/{v}/Notes and DELETE /crm/{v}/Notes?ids=…, by note ID. */
export const noteList: IdListTarget = {
	idParameter: 'noteId',
	label: 'Note ID',
	path: '/Notes',
	listKey: 'data',
	batchSize: NOTES_PER_REQUEST,
};
