import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmApiRequest, runBatched } from '../../../shared/transport';
import { checkDigits } from '../../../shared/validation';
import { noteIdField } from './shared';

/** DeleteNotes — DELETE /crm/{v}/Notes?ids=…, up to 100 IDs per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a note',
	description: 'Delete notes by ID',
};

const properties: INodeProperties[] = [noteIdField];

export const description = updateDisplayOptions({ show: { resource: ['note'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		build: (itemIndex) => {
			const id = String(this.getNodeParameter('noteId', itemIndex) ?? '').trim();
			checkDigits(this.getNode(), id, 'Note ID', { itemIndex });
			return { key: 'Notes', payload: { id } };
		},
		send: async (_key, payloads) => {
			const body = await crmApiRequest.call(this, {
				method: 'DELETE',
				path: '/Notes',
				qs: { ids: payloads.map((p) => p.id).join(',') },
				itemListKey: 'data',
			});
			return (body.data ?? []) as IDataObject[];
		},
	});
}
