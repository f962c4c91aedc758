import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { idOptions } from '../shared';

/** GetWizardbyID — GET /crm/{v}/settings/wizards/{wizardId}?layout_id= (v2.1 only) */
export const operation = getByIdOption({
	thing: 'wizard',
	path: '/settings/wizards',
	idParameter: 'wizardId',
	rootProperty: 'wizards',
	description: 'Retrieve one wizard with its screens for a layout',
	v21Only: 'Wizard → Get (GetWizardbyID)',
});

export const returns =
	'the wizard with its id, name, module and its screens for the layout (an error when none has the ID)';

const properties: INodeProperties[] = [
	idOptions('Wizard Name or ID', 'wizardId', 'getWizards', [], 'Wizard to retrieve'),
	{
		...idOptions(
			'Layout Name or ID',
			'layoutId',
			'getWizardLayouts',
			['wizardId'],
			'Layout whose wizard screens to retrieve',
		),
		routing: { send: { type: 'query', property: 'layout_id' } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['wizard'], operation: ['get'] } },
	properties,
);
