import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** GetProfiles — GET /crm/{v}/settings/profiles */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many profiles',
	description: 'List the profiles of the organization (without permissions)',
	routing: { request: { method: 'GET', url: '/settings/profiles' } },
};

export const returns = 'one item per profile, with its id, name and description (no permissions)';

export const description: INodeProperties[] = [];

/** Key of the items in the response (docs/protocol.md §5.6). */
export const rootProperty = 'profiles';
