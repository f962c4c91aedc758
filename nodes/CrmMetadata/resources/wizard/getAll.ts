import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireV21 } from '../../../shared/transport';

/** GetWizards — GET /crm/{v}/settings/wizards (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many wizards',
	description: 'List the wizards; API v2.1 only (GetWizards)',
	routing: {
		request: { method: 'GET', url: '/settings/wizards' },
		send: { preSend: [requireV21('Wizard → Get Many (GetWizards)')] },
	},
};

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions({ show: { resource: ['wizard'], operation: ['getAll'] } }, properties);
