import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordFieldsUi } from '../../../shared/descriptions';
import { recordFromFieldPairs } from '../../../shared/recordFields';
import type { FieldMeta } from '../../../shared/recordFields';
import { crmApiRequest, runBatched } from '../../../shared/transport';

/** CreateRecords — POST /crm/{v}/{module}, up to 100 records per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a record',
	description: 'Create records; input items are sent 100 per request (CreateRecords)',
};

const properties: INodeProperties[] = [moduleSelect, recordFieldsUi];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const fieldCache = new Map<string, Map<string, FieldMeta>>();
	return await runBatched.call(this, {
		build: async (itemIndex) => {
			const module = this.getNodeParameter('module', itemIndex) as string;
			return { key: module, payload: await recordFromFieldPairs.call(this, itemIndex, module, fieldCache) };
		},
		send: async (module, data) => {
			const body = await crmApiRequest.call(this, {
				method: 'POST',
				path: `/${encodeURIComponent(module)}`,
				body: { data },
				itemListKey: 'data',
			});
			return (body.data ?? []) as never;
		},
	});
}
