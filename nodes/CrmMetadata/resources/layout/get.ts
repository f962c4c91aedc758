import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { idOptions, moduleQueryField } from '../shared';

/** GetLayout — GET /crm/{v}/settings/layouts/{id}?module= */
export const operation = getByIdOption({
	thing: 'layout',
	path: '/settings/layouts',
	idParameter: 'layoutId',
	rootProperty: 'layouts',
	description: 'Retrieve one layout of a module by ID',
});

export const returns =
	'the layout with its id, name and sections with their fields (an error when no layout has the ID)';

const properties: INodeProperties[] = [
	moduleQueryField,
	idOptions('Layout Name or ID', 'layoutId', 'getLayouts', ['module'], 'Layout to retrieve'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['layout'], operation: ['get'] } },
	properties,
);
