import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** GetProfiles — GET /crm/{v}/settings/profiles */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many profiles',
	description: 'List the profiles of the organization (without permissions)',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/settings/profiles' } },
		{ rootProperty: 'profiles' },
	),
};

export const returns = 'one item per profile, with its id, name and description (no permissions)';

export const description: INodeProperties[] = [];
