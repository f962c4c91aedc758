import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** GetTerritories — GET /crm/{v}/settings/territories */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many territories',
	description: 'List the territories of the organization with their hierarchy and rules',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/settings/territories' } },
		{ rootProperty: 'territories' },
	),
};

export const returns =
	'one item per territory, with its id, name, parent territory, manager and account and deal rules';

export const description: INodeProperties[] = [];
