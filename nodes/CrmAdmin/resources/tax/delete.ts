import { runBatched } from '../../../shared/transport';
import { deleteIdsRequest, idParameter } from '../shared';
import { taxIdField } from './shared';
import { writeOperation } from '../../../shared/description/nodeDescription';

/**
 * DeleteTaxes — DELETE /crm/{v}/org/taxes?ids=… (up to 100 IDs per request);
 * DeleteTax — DELETE /crm/{v}/org/taxes/{id} (a chunk of one). Custom operation.
 */
export const { operation, returns, description, execute } = writeOperation('delete', {
	resource: 'tax',
	thing: 'tax',
	description: 'Delete taxes by ID',
	properties: [taxIdField],
	async execute() {
		return await runBatched(this, {
			build: (itemIndex) => ({
				key: 'taxes',
				payload: { id: idParameter.call(this, 'taxId', 'Tax', itemIndex) },
			}),
			request: (_key, payloads) => deleteIdsRequest('/org/taxes', 'taxes', payloads),
		});
	},
});
