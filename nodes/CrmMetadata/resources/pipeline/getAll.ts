import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, requireV21 } from '../../../shared/transport';
import { dealLayoutField } from '../shared';

/** GetPipelines — GET /crm/{v}/settings/pipeline?layout_id= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many pipelines',
	description: 'List the pipelines of a Deals layout with their stages',
	routing: crmRouting(
		{
			request: { method: 'GET', url: '/settings/pipeline' },
			send: { preSend: [requireV21('Pipeline → Get Many (GetPipelines)')] },
		},
		{ rootProperty: 'pipeline' },
	),
};

export const returns =
	'one item per pipeline of the layout, with its id, name, default flag and stages';

const properties: INodeProperties[] = [dealLayoutField];

export const description = updateDisplayOptions(
	{ show: { resource: ['pipeline'], operation: ['getAll'] } },
	properties,
);
