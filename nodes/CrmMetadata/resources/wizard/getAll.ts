import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { settingsListOption } from '../shared';

/** GetWizards — GET /crm/{v}/settings/wizards (v2.1 only) */
export const operation = settingsListOption({
	things: 'wizards',
	url: '/settings/wizards',
	rootProperty: 'wizards',
	description: 'List the wizards of the CRM',
	v21Only: 'Wizard → Get Many (GetWizards)',
});

export const returns = 'one item per wizard, with its id, name, module and whether it is active';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['wizard'], operation: ['getAll'] } },
	properties,
);
