import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { deleteByIds } from '../shared';
import { noteIdField, noteList } from './shared';

/** DeleteNotes — DELETE /crm/{v}/Notes?ids=…, up to 100 IDs per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a note',
	description: 'Delete notes by ID',
};

export const returns = 'one item per deleted note: its id and status';

const properties: INodeProperties[] = [noteIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['note'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await deleteByIds.call(this, noteList);
}
