import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/descriptions';
import { crmApiRequest, runBatched } from '../../../shared/transport';

/** DeleteRecords — DELETE /crm/{v}/{module}?ids=…, up to 100 ids per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a record',
	description: 'Delete records by ID; input items are sent 100 IDs per request (DeleteRecords)',
};

const properties: INodeProperties[] = [moduleSelect, recordIdField];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		build: (itemIndex) => {
			const module = this.getNodeParameter('module', itemIndex) as string;
			const id = String(this.getNodeParameter('recordId', itemIndex) ?? '').trim();
			if (!/^\d+$/.test(id)) {
				throw new NodeOperationError(this.getNode(), `Record ID must be digits, got "${id}"`, {
					itemIndex,
					description: 'Set "Record ID" to the numeric ID of the record to delete.',
				});
			}
			return { key: module, payload: { id } };
		},
		send: async (module, payloads) => {
			const body = await crmApiRequest.call(this, {
				method: 'DELETE',
				path: `/${encodeURIComponent(module)}`,
				qs: { ids: payloads.map((p) => p.id).join(',') },
				itemListKey: 'data',
			});
			return (body.data ?? []) as never;
		},
	});
}
