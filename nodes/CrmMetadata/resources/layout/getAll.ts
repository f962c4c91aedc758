import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleQueryField } from '../shared';
import { crmRouting } from '../../../shared/transport';

/** GetLayouts — GET /crm/{v}/settings/layouts?module= */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many layouts',
	description: 'List the layouts of a module with their sections and fields',
	routing: crmRouting(
		{ request: { method: 'GET', url: '/settings/layouts' } },
		{ rootProperty: 'layouts' },
	),
};

export const returns =
	'one item per layout of the module, with its id, name and sections with their fields';

const properties: INodeProperties[] = [moduleQueryField];

export const description = updateDisplayOptions(
	{ show: { resource: ['layout'], operation: ['getAll'] } },
	properties,
);
