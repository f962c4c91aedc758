import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordFieldsUi, recordIdField } from '../../../shared/descriptions';
import { recordFromFieldPairs } from '../../../shared/recordFields';
import type { FieldMeta } from '../../../shared/recordFields';
import { crmApiRequest, runBatched } from '../../../shared/transport';

/** UpdateRecords — PUT /crm/{v}/{module}, up to 100 records per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a record',
	description: 'Update records by ID; input items are sent 100 per request (UpdateRecords)',
};

const properties: INodeProperties[] = [moduleSelect, recordIdField, recordFieldsUi];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const fieldCache = new Map<string, Map<string, FieldMeta>>();
	return await runBatched.call(this, {
		build: async (itemIndex) => {
			const module = this.getNodeParameter('module', itemIndex) as string;
			const id = String(this.getNodeParameter('recordId', itemIndex) ?? '').trim();
			if (!/^\d+$/.test(id)) {
				throw new NodeOperationError(this.getNode(), `Record ID must be digits, got "${id}"`, {
					itemIndex,
					description: 'Set "Record ID" to the numeric ID of the record to update.',
				});
			}
			const record = await recordFromFieldPairs.call(this, itemIndex, module, fieldCache);
			return { key: module, payload: { ...record, id } };
		},
		send: async (module, data) => {
			const body = await crmApiRequest.call(this, {
				method: 'PUT',
				path: `/${encodeURIComponent(module)}`,
				body: { data },
				itemListKey: 'data',
			});
			return (body.data ?? []) as never;
		},
	});
}
