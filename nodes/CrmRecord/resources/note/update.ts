import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { crmApiRequest, runBatched } from '../../../shared/transport';
import { checkDigits } from '../../../shared/validation';
import { noteIdField } from './shared';

/** UpdateNotes — PUT /crm/{v}/Notes, up to 100 notes per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a note',
	description: 'Update notes by ID',
};

const properties: INodeProperties[] = [
	noteIdField,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Note Content', name: 'Note_Content', type: 'string', typeOptions: { rows: 4 }, default: '' },
			{ displayName: 'Note Title', name: 'Note_Title', type: 'string', default: '' },
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['note'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		build: (itemIndex) => {
			const id = String(this.getNodeParameter('noteId', itemIndex) ?? '').trim();
			checkDigits(this.getNode(), id, 'Note ID', { itemIndex });
			const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
			if (Object.keys(fields).length === 0) {
				throw new NodeOperationError(this.getNode(), 'Nothing to update: add a field under "Update Fields"', { itemIndex });
			}
			return { key: 'Notes', payload: { id, ...fields } };
		},
		send: async (_key, data) => {
			const body = await crmApiRequest.call(this, { method: 'PUT', path: '/Notes', body: { data }, itemListKey: 'data' });
			return (body.data ?? []) as IDataObject[];
		},
	});
}
