import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, noneWithId, requireV21 } from '../../../shared/transport';
import { idOptions } from '../shared';

/** GetWizardbyID — GET /crm/{v}/settings/wizards/{wizardId}?layout_id= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a wizard',
	description: 'Retrieve one wizard with its screens for a layout',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/settings/wizards/{{ toPathSegment($parameter.wizardId) }}',
			},
			send: { preSend: [requireV21('Wizard → Get (GetWizardbyID)')] },
		},
		{ rootProperty: 'wizards', notFound: noneWithId('wizard', 'wizardId') },
	),
};

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
