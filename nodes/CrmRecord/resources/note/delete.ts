import { deleteByIds } from '../shared';
import { noteIdField, noteList } from './shared';
import { writeOperation } from '../../../shared/description/nodeDescription';

/** DeleteNotes — DELETE /crm/{v}/Notes?ids=…, up to 100 IDs per request (custom operation) */
export const { operation, returns, description, execute } = writeOperation('delete', {
	resource: 'note',
	thing: 'note',
	description: 'Delete notes by ID',
	properties: [noteIdField],
	async execute() {
		return await deleteByIds.call(this, noteList);
	},
});
