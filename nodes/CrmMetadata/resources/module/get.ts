import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';

/** GetModule — GET /crm/{v}/settings/modules/{apiName} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a module',
	description: 'Retrieve one module with its fields',
	routing: {
		request: { method: 'GET', url: '=/settings/modules/{{ toPathSegment($parameter.module) }}' },
	},
};

export const returns = 'the module with its id, API name, labels and fields';

const properties: INodeProperties[] = [moduleSelect];

export const description = updateDisplayOptions(
	{ show: { resource: ['module'], operation: ['get'] } },
	properties,
);

/** Key of the items in the response (docs/protocol.md §5.7). */
export const rootProperty = 'modules';
