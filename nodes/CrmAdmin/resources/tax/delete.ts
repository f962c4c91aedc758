import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runBatched } from '../../../shared/transport';
import { deleteIdsRequest, idParameter } from '../shared';
import { taxIdField } from './shared';

/**
 * DeleteTaxes — DELETE /crm/{v}/org/taxes?ids=… (up to 100 IDs per request);
 * DeleteTax — DELETE /crm/{v}/org/taxes/{id} (a chunk of one). Custom operation.
 */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a tax',
	description: 'Delete taxes by ID',
};

export const returns = 'one item per deleted tax: its id and status';

export const description = updateDisplayOptions(
	{ show: { resource: ['tax'], operation: ['delete'] } },
	[taxIdField] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		build: (itemIndex) => ({
			key: 'taxes',
			payload: { id: idParameter.call(this, 'taxId', 'Tax', itemIndex) },
		}),
		request: (_key, payloads) => deleteIdsRequest('/org/taxes', 'taxes', payloads),
	});
}
