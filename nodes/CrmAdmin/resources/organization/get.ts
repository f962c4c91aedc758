import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetOrganization — GET /crm/{v}/org */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get the organization',
	description: 'Retrieve the organization details, including the ID bulk write uploads need',
	routing: { request: { method: 'GET', url: '/org' } },
};

export const returns =
	'the organization with its id, company name, address, settings, license details and xgid';

export const description: INodeProperties[] = [];

/** Key of the items in the response (docs/protocol.md §5.6). */
export const rootProperty = 'org';
