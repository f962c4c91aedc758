import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleQueryField, settingsListOption } from '../shared';

/** GetLayouts — GET /crm/{v}/settings/layouts?module= */
export const operation = settingsListOption({
	things: 'layouts',
	url: '/settings/layouts',
	rootProperty: 'layouts',
	description: 'List the layouts of a module with their sections and fields',
});

export const returns =
	'one item per layout of the module, with its id, name and sections with their fields';

const properties: INodeProperties[] = [moduleQueryField];

export const description = updateDisplayOptions(
	{ show: { resource: ['layout'], operation: ['getAll'] } },
	properties,
);
