import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleQueryField, settingsListOption } from '../shared';

/** GetRelatedLists — GET /crm/{v}/settings/related_lists?module= */
export const operation = settingsListOption({
	things: 'related lists',
	url: '/settings/related_lists',
	rootProperty: 'related_lists',
	description: 'List the related lists of a module',
});

export const returns =
	'one item per related list of the module, with its id, API name, label and the module it lists';

const properties: INodeProperties[] = [moduleQueryField];

export const description = updateDisplayOptions(
	{ show: { resource: ['relatedList'], operation: ['getAll'] } },
	properties,
);
