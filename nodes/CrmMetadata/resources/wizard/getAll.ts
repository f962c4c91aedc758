import { settingsListOperation } from '../shared';

/** GetWizards — GET /crm/{v}/settings/wizards (v2.1 only) */
export const { operation, returns, description } = settingsListOperation({
	resource: 'wizard',
	things: 'wizards',
	url: '/settings/wizards',
	rootProperty: 'wizards',
	description: 'List the wizards of the CRM',
	v21Only: 'Wizard → Get Many (GetWizards)',
	returns: 'one item per wizard, with its id, name, module and whether it is active',
	properties: [],
});
