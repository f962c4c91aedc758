import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetProfiles — GET /crm/{v}/settings/profiles */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many profiles',
	description: 'List the profiles of the organization (without permissions) (GetProfiles)',
	routing: { request: { method: 'GET', url: '/settings/profiles' } },
};

export const description: INodeProperties[] = [];
