import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetOrganization — GET /crm/{v}/org */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get the organization',
	description: 'Retrieve the organization details, including the xgid used by bulk-write uploads (GetOrganization)',
	routing: { request: { method: 'GET', url: '/org' } },
};

export const description: INodeProperties[] = [];
