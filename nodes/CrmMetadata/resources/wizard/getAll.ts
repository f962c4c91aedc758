import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, requireV21 } from '../../../shared/transport';

/** GetWizards — GET /crm/{v}/settings/wizards (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many wizards',
	description: 'List the wizards of the CRM',
	routing: crmRouting(
		{
			request: { method: 'GET', url: '/settings/wizards' },
			send: { preSend: [requireV21('Wizard → Get Many (GetWizards)')] },
		},
		{ rootProperty: 'wizards' },
	),
};

export const returns = 'one item per wizard, with its id, name, module and whether it is active';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['wizard'], operation: ['getAll'] } },
	properties,
);
