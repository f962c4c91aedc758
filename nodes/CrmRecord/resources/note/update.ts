import type { INodeProperties } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { updateByIds } from '../shared';
import { noteIdField, noteList } from './shared';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	noteIdField,
	updateFieldsCollection([
		{
			displayName: 'Note Content',
			name: 'Note_Content',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
		},
		{ displayName: 'Note Title', name: 'Note_Title', type: 'string', default: '' },
	]),
];

/** UpdateNotes — PUT /crm/{v}/Notes, up to 100 notes per request (custom operation) */
export const { operation, returns, description, execute } = writeOperation('update', {
	resource: 'note',
	thing: 'note',
	description: 'Update notes by ID',
	properties,
	async execute() {
		return await updateByIds.call(this, noteList);
	},
});
