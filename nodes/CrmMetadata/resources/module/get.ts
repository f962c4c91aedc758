import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { crmRouting } from '../../../shared/transport';

/** GetModule — GET /crm/{v}/settings/modules/{apiName} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a module',
	description: 'Retrieve one module with its fields',
	routing: crmRouting(
		{
			request: { method: 'GET', url: '=/settings/modules/{{ toPathSegment($parameter.module) }}' },
		},
		{ rootProperty: 'modules' },
	),
};

export const returns = 'the module with its id, API name, labels and fields';

const properties: INodeProperties[] = [moduleSelect];

export const description = updateDisplayOptions(
	{ show: { resource: ['module'], operation: ['get'] } },
	properties,
);
