import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { bodyPreSend, crmRouting, requireV21 } from '../../../shared/transport';
import { dealLayoutField } from '../shared';
import { pipelineIdField, pipelineItem, pipelineUpdateFields } from './shared';
import { getParameter } from '../../../shared/parameters';

/** preSend: the one-item `pipeline` body, validated before sending. */
const pipelineBody = bodyPreSend(function (itemIndex) {
	const fields = getParameter(this, 'updateFields', itemIndex, {}) as IDataObject;
	const built = pipelineItem(
		{ name: fields.name, isDefault: fields.isDefault, stageIds: fields.stageIds },
		'update',
	);
	if ('error' in built) throw new NodeOperationError(this.getNode(), built.error, { itemIndex });
	return { pipeline: [built.item] };
});

/** UpdatePipeline — PUT /crm/{v}/settings/pipeline/{pipelineId}?layout_id= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a pipeline',
	description: 'Rename a pipeline, change its stages or make it the default',
	routing: crmRouting(
		{
			request: {
				method: 'PUT',
				url: '=/settings/pipeline/{{ toPathSegment($parameter.pipelineId) }}',
			},
			send: { preSend: [requireV21('Pipeline → Update (UpdatePipeline)'), pipelineBody] },
		},
		{ rootProperty: 'pipeline' },
	),
};

export const returns = 'the outcome of the update: its status and message, with the pipeline id';

const properties: INodeProperties[] = [dealLayoutField, pipelineIdField, pipelineUpdateFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['pipeline'], operation: ['update'] } },
	properties,
);
