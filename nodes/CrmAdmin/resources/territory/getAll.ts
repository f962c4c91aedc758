import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetTerritories — GET /crm/{v}/settings/territories */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many territories',
	description: 'List the territories of the organization with their hierarchy and rules (GetTerritories)',
	routing: { request: { method: 'GET', url: '/settings/territories' } },
};

export const description: INodeProperties[] = [];
