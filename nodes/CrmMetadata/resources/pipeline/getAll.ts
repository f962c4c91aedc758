import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireV21 } from '../../../shared/transport';
import { dealLayoutField } from '../shared';

/** GetPipelines — GET /crm/{v}/settings/pipeline?layout_id= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many pipelines',
	description: 'List the pipelines of a Deals layout with their stages',
	routing: {
		request: { method: 'GET', url: '/settings/pipeline' },
		send: { preSend: [requireV21('Pipeline → Get Many (GetPipelines)')] },
	},
};

export const returns =
	'one item per pipeline of the layout, with its id, name, default flag and stages';

const properties: INodeProperties[] = [dealLayoutField];

export const description = updateDisplayOptions(
	{ show: { resource: ['pipeline'], operation: ['getAll'] } },
	properties,
);

/** Key of the items in the response (docs/protocol.md §5.8). */
export const rootProperty = 'pipeline';
