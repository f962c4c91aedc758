import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** A missing ID: "No territory with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('territory', 'territoryId');

/** GetTerritory — GET /crm/{v}/settings/territories/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a territory',
	description: 'Retrieve one territory by ID',
	routing: crmRouting(byIdRouting('GET', '/settings/territories', 'territoryId', 'Territory ID'), {
		rootProperty: 'territories',
		notFound,
	}),
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
