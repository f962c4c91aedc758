import type { INodeProperties } from 'n8n-workflow';

export const noteIdField: INodeProperties = {
	displayName: 'Note ID',
	name: 'noteId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '4876876000000611404',
	description: 'Numeric ID of the note',
};

/** Notes per create/update request and IDs per delete request (docs/protocol.md §6). */
export const NOTES_PER_REQUEST = 100;
