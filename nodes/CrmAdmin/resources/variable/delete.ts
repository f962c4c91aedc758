import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmApiRequest, runBatched } from '../../../shared/transport';
import { idParameter } from '../shared';

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

const properties: INodeProperties[] = [
	{
		displayName: 'Variable ID',
		name: 'variableId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '4876876000000391101',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['variable'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched.call(this, {
		build: (itemIndex) => ({ key: 'variables', payload: { id: idParameter.call(this, 'variableId', 'Variable ID', itemIndex) } }),
		send: async (_key, payloads) => {
			const ids = payloads.map((p) => String(p.id));
			const body =
				ids.length === 1
					? await crmApiRequest.call(this, { method: 'DELETE', path: `/settings/variables/${encodeURIComponent(ids[0])}`, itemListKey: 'variables' })
					: await crmApiRequest.call(this, { method: 'DELETE', path: '/settings/variables', qs: { ids: ids.join(',') }, itemListKey: 'variables' });
			return (body.variables ?? []) as IDataObject[];
		},
	});
}
