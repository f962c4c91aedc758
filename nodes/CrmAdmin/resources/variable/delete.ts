import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runBatched } from '../../../shared/transport';
import { deleteIdsRequest, idParameter } from '../shared';
import { variableIdField } from './shared';

/**
 * DeleteVariables — DELETE /crm/{v}/settings/variables?ids=… (up to 100 IDs per request);
 * DeleteVariable — DELETE /crm/{v}/settings/variables/{id} (a chunk of one). Custom operation.
 */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a variable',
	description: 'Delete variables by ID',
};

export const returns = 'one item per deleted variable: its id and status';

const properties: INodeProperties[] = [variableIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['variable'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		build: (itemIndex) => ({
			key: 'variables',
			payload: { id: idParameter.call(this, 'variableId', 'Variable ID', itemIndex) },
		}),
		request: (_key, payloads) => deleteIdsRequest('/settings/variables', 'variables', payloads),
	});
}
