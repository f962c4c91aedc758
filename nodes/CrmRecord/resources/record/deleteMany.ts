import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue } from '../../../shared/descriptions';
import { BATCH_SIZE, crmApiError, isErrorItem, writeResult } from '../../../shared/transport';
import type { CrmErrorBody } from '../../../shared/transport';
import { idListOf } from './shared';
import { sendDeletes, wfTriggerOption, wfTriggerQuery } from './delete';

/** DeleteRecords — DELETE /crm/{v}/{module}?ids=… (the item's IDs in groups of 100) */
export const operation: INodePropertyOptions = {
	name: 'Delete Many',
	value: 'deleteMany',
	action: 'Delete many records',
	description: 'Delete a list of records by ID; one output item per ID',
};

export const returns = 'one item per ID given: the record id and the status of its deletion';

const properties: INodeProperties[] = [
	moduleSelect,
	{
		displayName: 'Record IDs',
		name: 'recordIds',
		type: 'string',
		default: '',
		required: true,
		placeholder: '4876876000000611001,4876876000000611002',
		description: 'Comma-separated record IDs (or an array in an expression); any number, sent 100 per request',
	},
	wfTriggerOption,
];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['deleteMany'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	const continueOnFail = this.continueOnFail();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const module = pickedValue(this, 'module', itemIndex);
			const ids = idListOf.call(this, this.getNodeParameter('recordIds', itemIndex), itemIndex, 'Record IDs');
			const qs = wfTriggerQuery.call(this, itemIndex);
			const failures: CrmErrorBody[] = [];
			for (let start = 0; start < ids.length; start += BATCH_SIZE) {
				const chunk = ids.slice(start, start + BATCH_SIZE);
				// always the list form, even for one ID: this operation is DeleteRecords
				const results = await sendDeletes.call(this, module, chunk, qs, undefined, true);
				chunk.forEach((id, i) => {
					const result = results[i] ?? { code: 'NO_RESULT', message: 'no result for this ID', status: 'error', details: { id } };
					if (isErrorItem(result)) failures.push(result as CrmErrorBody);
					output.push({
						json: isErrorItem(result) ? { id, ...(result as IDataObject) } : writeResult(result),
						pairedItem: { item: itemIndex },
					});
				});
			}
			if (failures.length && !continueOnFail) {
				const error = crmApiError(this.getNode(), failures[0], { itemIndex });
				error.description = `${failures.length} of ${ids.length} IDs were not deleted. ${error.description ?? ''}`.trim();
				throw error;
			}
		} catch (error) {
			if (!continueOnFail) {
				const nodeError =
					error instanceof NodeOperationError || error instanceof NodeApiError
						? error
						: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
				throw nodeError;
			}
			output.push({
				json: { error: (error as Error).message, details: (error as NodeApiError).context?.crm ?? {} },
				pairedItem: { item: itemIndex },
			});
		}
	}
	return [output];
}
