import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, noneWithId, requireV21 } from '../../../shared/transport';
import { dealLayoutField } from '../shared';
import { pipelineIdField } from './shared';

/** GetPipeline — GET /crm/{v}/settings/pipeline/{pipelineId}?layout_id= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a pipeline',
	description: 'Retrieve one pipeline of a Deals layout',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/settings/pipeline/{{ toPathSegment($parameter.pipelineId) }}',
			},
			send: { preSend: [requireV21('Pipeline → Get (GetPipeline)')] },
		},
		{ rootProperty: 'pipeline', notFound: noneWithId('pipeline', 'pipelineId') },
	),
};

export const returns =
	'the pipeline with its id, name, default flag and stages (an error when no pipeline has the ID)';

const properties: INodeProperties[] = [dealLayoutField, pipelineIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['pipeline'], operation: ['get'] } },
	properties,
);
