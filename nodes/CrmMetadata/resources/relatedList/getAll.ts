import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleQueryField } from '../shared';
import { crmRouting } from '../../../shared/transport';

/** GetRelatedLists — GET /crm/{v}/settings/related_lists?module= */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many related lists',
	description: 'List the related lists of a module',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/settings/related_lists' } },
		{ rootProperty: 'related_lists' },
	),
};

export const returns =
	'one item per related list of the module, with its id, API name, label and the module it lists';

const properties: INodeProperties[] = [moduleQueryField];

export const description = updateDisplayOptions(
	{ show: { resource: ['relatedList'], operation: ['getAll'] } },
	properties,
);
