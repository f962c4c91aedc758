import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** A missing ID: "No profile with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('profile', 'profileId');

/** GetProfile — GET /crm/{v}/settings/profiles/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a profile',
	description: 'Retrieve one profile by ID, with its permissions and sections',
	routing: crmRouting(byIdRouting('GET', '/settings/profiles', 'profileId', 'Profile ID'), {
		rootProperty: 'profiles',
		notFound,
	}),
};

export const returns =
	'the profile with its id, name, description, permissions and sections (an error when no profile has the ID)';

const properties: INodeProperties[] = [
	{
		displayName: 'Profile Name or ID',
		name: 'profileId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProfiles' },
		default: '',
		required: true,
		description:
			'The profile to retrieve. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['get'] } },
	properties,
);
