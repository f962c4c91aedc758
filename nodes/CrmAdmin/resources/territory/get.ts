import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';

/** GetTerritory — GET /crm/{v}/settings/territories/{id} */
export const operation = getByIdOption({
	thing: 'territory',
	path: '/settings/territories',
	idParameter: 'territoryId',
	rootProperty: 'territories',
	description: 'Retrieve one territory by ID',
});

export const returns =
	'the territory with its id, name, parent, manager and rules (an error when no territory has the ID)';

const properties: INodeProperties[] = [
	{
		displayName: 'Territory Name or ID',
		name: 'territoryId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTerritories' },
		default: '',
		required: true,
		description:
			'The territory to retrieve. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['territory'], operation: ['get'] } },
	properties,
);
