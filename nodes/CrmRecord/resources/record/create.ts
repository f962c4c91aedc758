import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/descriptions';
import { recordBody } from '../../../shared/recordFields';
import type { FieldMeta } from '../../../shared/recordFields';
import { runBatched } from '../../../shared/transport';
import { fieldsProperties, modulePath, sendRecords, writeExtrasOf, writeOptionsProperty } from './common';

/** CreateRecords — POST /crm/{v}/{module} */
export const operation: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a record',
	description: 'Create records; input items are sent 100 per request (CreateRecords)',
};

const properties: INodeProperties[] = [moduleSelect, ...fieldsProperties('add'), writeOptionsProperty()];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const fieldCache = new Map<string, Map<string, FieldMeta>>();
	return await runBatched.call(this, {
		build: async (itemIndex) => {
			const module = this.getNodeParameter('module', itemIndex) as string;
			const { body, external } = writeExtrasOf.call(this, itemIndex);
			const { record } = await recordBody.call(this, itemIndex, module, fieldCache);
			// items with the same module and options share requests
			return { key: JSON.stringify({ module, body, external }), payload: record };
		},
		send: async (key, data) => {
			const { module, body, external } = JSON.parse(key) as { module: string; body: IDataObject; external: string[] };
			return await sendRecords.call(this, { method: 'POST', path: modulePath(module), data, extras: body, external });
		},
	});
}
