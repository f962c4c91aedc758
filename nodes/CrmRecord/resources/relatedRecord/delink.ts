import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { relationProperties, runRelationBatches } from './shared';

/** DelinkRecords (+DeleteRelatedRecordsUsingExternalID) — DELETE /crm/{v}/{module}/{recordId}/{relatedList}?ids=…, up to 100 per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Delink',
	value: 'delink',
	action: 'Delink a related record',
	description: "Remove records from a record's related list",
};

export const returns = 'one item per delinked record: its id and status';

export const description = updateDisplayOptions(
	{ show: { resource: ['relatedRecord'], operation: ['delink'] } },
	relationProperties(),
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runRelationBatches.call(
		this,
		'DELETE',
		({ relatedId }) => ({ id: relatedId }),
		(payloads) => ({ qs: { ids: payloads.map((p) => p.id).join(',') } }),
	);
}
