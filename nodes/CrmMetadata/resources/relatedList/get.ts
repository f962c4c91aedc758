import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/descriptions';
import { idOptions } from '../common';

/** GetRelatedList — GET /crm/{v}/settings/related_lists/{id}?module= */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a related list',
	description: 'Retrieve one related list of a module by ID (GetRelatedList)',
	routing: { request: { method: 'GET', url: '=/settings/related_lists/{{ toPathSegment($parameter.relatedListId) }}' } },
};

const properties: INodeProperties[] = [
	{ ...moduleSelect, routing: { send: { type: 'query', property: 'module' } } },
	idOptions('Related List Name or ID', 'relatedListId', 'getRelatedListIds', ['module'], 'Related list to retrieve'),
];

export const description = updateDisplayOptions({ show: { resource: ['relatedList'], operation: ['get'] } }, properties);
