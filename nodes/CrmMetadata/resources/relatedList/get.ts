import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { idOptions, moduleQueryField } from '../shared';

/** GetRelatedList — GET /crm/{v}/settings/related_lists/{id}?module= */
export const operation = getByIdOption({
	thing: 'related list',
	path: '/settings/related_lists',
	idParameter: 'relatedListId',
	rootProperty: 'related_lists',
	description: 'Retrieve one related list of a module by ID',
	unchecked: true,
});

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
