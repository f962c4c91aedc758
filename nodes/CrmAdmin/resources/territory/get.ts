import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { noneWithId } from '../../../shared/transport';

/** GetTerritory — GET /crm/{v}/settings/territories/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a territory',
	description: 'Retrieve one territory by ID',
	routing: byIdRouting('GET', '/settings/territories', 'territoryId', 'Territory ID'),
};

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

/** Key of the items in the response (docs/protocol.md §5.6). */
export const rootProperty = 'territories';

/** A missing ID: "No territory with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('territory', 'territoryId');
