import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { updateByIds } from '../shared';
import { noteIdField, noteList } from './shared';

/** UpdateNotes — PUT /crm/{v}/Notes, up to 100 notes per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a note',
	description: 'Update notes by ID',
};

export const returns = 'one item per updated note: its id and status';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['note'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await updateByIds.call(this, noteList);
}
