import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idOptions, moduleQueryField } from '../shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** GetRelatedList — GET /crm/{v}/settings/related_lists/{id}?module= */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a related list',
	description: 'Retrieve one related list of a module by ID',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/settings/related_lists/{{ toPathSegment($parameter.relatedListId) }}',
			},
		},
		{ rootProperty: 'related_lists', notFound: noneWithId('related list', 'relatedListId') },
	),
};

export const returns =
	'the related list with its id, API name, label and the module it lists (an error when none has the ID)';

const properties: INodeProperties[] = [
	moduleQueryField,
	idOptions(
		'Related List Name or ID',
		'relatedListId',
		'getRelatedListIds',
		['module'],
		'Related list to retrieve',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['relatedList'], operation: ['get'] } },
	properties,
);
