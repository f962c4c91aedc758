import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue } from '../../../shared/description/properties';
import {
	BATCH_SIZE,
	crmApiError,
	crmRequest,
	isErrorItem,
	runPerItem,
	writeResult,
} from '../../../shared/transport';
import type { CrmErrorBody } from '../../../shared/transport';
import { idListOf } from './shared';
import { deletesRequest, wfTriggerOption, wfTriggerQuery } from './delete';
import { getParameter } from '../../../shared/parameters';

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
		description:
			'Comma-separated record IDs (or an array in an expression); any number, sent 100 per request',
	},
	wfTriggerOption,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['deleteMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPerItem(this, async (itemIndex) => {
		const module = pickedValue(this, 'module', itemIndex);
		const ids = idListOf.call(
			this,
			getParameter(this, 'recordIds', itemIndex),
			itemIndex,
			'Record IDs',
		);
		const qs = wfTriggerQuery.call(this, itemIndex);
		const output: INodeExecutionData[] = [];
		const failures: CrmErrorBody[] = [];
		for (let start = 0; start < ids.length; start += BATCH_SIZE) {
			const chunk = ids.slice(start, start + BATCH_SIZE);
			// always the list form, even for one ID: this operation is DeleteRecords
			const results = await crmRequest(this, deletesRequest(module, chunk, qs, undefined, true));
			chunk.forEach((id, i) => {
				const result = results[i] ?? {
					code: 'NO_RESULT',
					message: 'no result for this ID',
					status: 'error',
					details: { id },
				};
				if (isErrorItem(result)) failures.push(result as CrmErrorBody);
				output.push({
					json: isErrorItem(result) ? { id, ...(result as IDataObject) } : writeResult(result),
				});
			});
		}
		// one output item per ID, failed ones included, with Continue On Fail; otherwise the item fails
		if (failures.length && !this.continueOnFail()) {
			const error = crmApiError(this.getNode(), failures[0], { itemIndex });
			error.description =
				`${failures.length} of ${ids.length} IDs were not deleted. ${error.description ?? ''}`.trim();
			throw error;
		}
		return output;
	});
}
