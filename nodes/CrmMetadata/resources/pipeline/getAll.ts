import { dealLayoutField, settingsListOperation } from '../shared';

/** GetPipelines — GET /crm/{v}/settings/pipeline?layout_id= (v2.1 only) */
export const { operation, returns, description } = settingsListOperation({
	resource: 'pipeline',
	things: 'pipelines',
	url: '/settings/pipeline',
	rootProperty: 'pipeline',
	description: 'List the pipelines of a Deals layout with their stages',
	v21Only: 'Pipeline → Get Many (GetPipelines)',
	returns: 'one item per pipeline of the layout, with its id, name, default flag and stages',
	properties: [dealLayoutField],
});
