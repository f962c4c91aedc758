import { runBatched } from '../../../shared/transport';
import { deleteIdsRequest, idParameter } from '../shared';
import { variableIdField } from './shared';
import { writeOperation } from '../../../shared/description/nodeDescription';

/**
 * DeleteVariables — DELETE /crm/{v}/settings/variables?ids=… (up to 100 IDs per request);
 * DeleteVariable — DELETE /crm/{v}/settings/variables/{id} (a chunk of one). Custom operation.
 */
export const { operation, returns, description, execute } = writeOperation('delete', {
	resource: 'variable',
	thing: 'variable',
	description: 'Delete variables by ID',
	properties: [variableIdField],
	async execute() {
		return await runBatched(this, {
			build: (itemIndex) => ({
				key: 'variables',
				payload: { id: idParameter.call(this, 'variableId', 'Variable ID', itemIndex) },
			}),
			request: (_key, payloads) => deleteIdsRequest('/settings/variables', 'variables', payloads),
		});
	},
});
