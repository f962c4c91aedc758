import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/descriptions';
import { crmApiRequest, runBatched } from '../../../shared/transport';
import { relationExternalHeader, externalIdOptions, parentRecordIdField, relatedListSelect, relatedRecordIdField, relationOf } from './shared';

/** DelinkRecords (+DeleteRelatedRecordsUsingExternalID) — DELETE /crm/{v}/{module}/{recordId}/{relatedList}?ids=…, up to 100 per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Delink',
	value: 'delink',
	action: 'Delink a related record',
	description: "Remove records from a record's related list",
};

const properties: INodeProperties[] = [
	moduleSelect,
	parentRecordIdField,
	relatedListSelect,
	relatedRecordIdField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: externalIdOptions,
	},
];

export const description = updateDisplayOptions({ show: { resource: ['relatedRecord'], operation: ['delink'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		build: (itemIndex) => {
			const { module, relatedList, parentField, relatedField, recordId, relatedId } = relationOf.call(this, itemIndex);
			const header = relationExternalHeader(module, relatedList, parentField, relatedField);
			return { key: JSON.stringify([module, recordId, relatedList, header ?? '']), payload: { id: relatedId } };
		},
		send: async (key, payloads) => {
			const [module, recordId, relatedList, header] = JSON.parse(key) as string[];
			const body = await crmApiRequest.call(this, {
				method: 'DELETE',
				path: `/${encodeURIComponent(module)}/${encodeURIComponent(recordId)}/${encodeURIComponent(relatedList)}`,
				qs: { ids: payloads.map((p) => p.id).join(',') },
				headers: header ? { 'X-EXTERNAL': header } : undefined,
				itemListKey: 'data',
			});
			return (body.data ?? []) as IDataObject[];
		},
	});
}
