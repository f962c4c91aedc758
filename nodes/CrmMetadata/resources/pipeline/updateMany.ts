import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { assertV21, runBatched } from '../../../shared/transport';
import { digitsParameter } from '../../../shared/records/validation';
import { dealLayoutField } from '../shared';
import { pipelineIdField, pipelineItem, pipelineUpdateFields } from './shared';
import { getParameter } from '../../../shared/parameters';

/** UpdatePipelines — PUT /crm/{v}/settings/pipeline?layout_id=, up to 100 pipelines per request (custom operation, v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Update Many',
	value: 'updateMany',
	action: 'Update many pipelines',
	description: 'Update pipelines by ID',
};

export const returns = 'one item per updated pipeline: its id and status';

const properties: INodeProperties[] = [dealLayoutField, pipelineIdField, pipelineUpdateFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['pipeline'], operation: ['updateMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	await assertV21.call(this, 'Pipeline → Update Many (UpdatePipelines)');
	return await runBatched(this, {
		build: (itemIndex) => {
			const layoutId = digitsParameter(this, 'layoutId', 'Deals layout ID', itemIndex);
			const id = digitsParameter(this, 'pipelineId', 'Pipeline ID', itemIndex);
			const fields = getParameter(this, 'updateFields', itemIndex, {}) as IDataObject;
			const built = pipelineItem(
				{ name: fields.name, isDefault: fields.isDefault, stageIds: fields.stageIds },
				'update',
			);
			if ('error' in built)
				throw new NodeOperationError(this.getNode(), built.error, { itemIndex });
			return { key: layoutId, payload: { id, ...built.item } };
		},
		request: (layoutId, pipelines) =>
			itemListRequest(
				{ method: 'PUT', path: '/settings/pipeline', qs: { layout_id: layoutId } },
				'pipeline',
				pipelines,
			),
	});
}
