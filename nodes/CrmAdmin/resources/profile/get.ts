import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';

/** GetProfile — GET /crm/{v}/settings/profiles/{id} */
export const operation = getByIdOption({
	thing: 'profile',
	path: '/settings/profiles',
	idParameter: 'profileId',
	rootProperty: 'profiles',
	description: 'Retrieve one profile by ID, with its permissions and sections',
});

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
