import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { dealLayoutField } from '../shared';
import { pipelineIdField } from './shared';

/** GetPipeline — GET /crm/{v}/settings/pipeline/{pipelineId}?layout_id= (v2.1 only) */
export const operation = getByIdOption({
	thing: 'pipeline',
	path: '/settings/pipeline',
	idParameter: 'pipelineId',
	rootProperty: 'pipeline',
	description: 'Retrieve one pipeline of a Deals layout',
	v21Only: 'Pipeline → Get (GetPipeline)',
});

export const returns =
	'the pipeline with its id, name, default flag and stages (an error when no pipeline has the ID)';

const properties: INodeProperties[] = [dealLayoutField, pipelineIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['pipeline'], operation: ['get'] } },
	properties,
);
