import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dealLayoutField, settingsListOption } from '../shared';

/** GetPipelines — GET /crm/{v}/settings/pipeline?layout_id= (v2.1 only) */
export const operation = settingsListOption({
	things: 'pipelines',
	url: '/settings/pipeline',
	rootProperty: 'pipeline',
	description: 'List the pipelines of a Deals layout with their stages',
	v21Only: 'Pipeline → Get Many (GetPipelines)',
});

export const returns =
	'one item per pipeline of the layout, with its id, name, default flag and stages';

const properties: INodeProperties[] = [dealLayoutField];

export const description = updateDisplayOptions(
	{ show: { resource: ['pipeline'], operation: ['getAll'] } },
	properties,
);
