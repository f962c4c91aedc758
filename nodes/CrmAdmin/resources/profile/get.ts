import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireDigits } from '../../../shared/validation';

/** GetProfile — GET /crm/{v}/settings/profiles/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a profile',
	description: 'Retrieve one profile by ID, with its permissions and sections (GetProfile)',
	routing: {
		request: { method: 'GET', url: '=/settings/profiles/{{ toPathSegment(String($parameter.profileId).trim()) }}' },
		send: { preSend: [requireDigits('profileId', 'Profile ID')] },
	},
};

const properties: INodeProperties[] = [
	{
		displayName: 'Profile Name or ID',
		name: 'profileId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProfiles' },
		default: '',
		required: true,
		description: 'The profile to retrieve. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['profile'], operation: ['get'] } }, properties);
