import { moduleQueryField, settingsListOperation } from '../shared';

/** GetRelatedLists — GET /crm/{v}/settings/related_lists?module= */
export const { operation, returns, description } = settingsListOperation({
	resource: 'relatedList',
	things: 'related lists',
	url: '/settings/related_lists',
	rootProperty: 'related_lists',
	description: 'List the related lists of a module',
	returns:
		'one item per related list of the module, with its id, API name, label and the module it lists',
	properties: [moduleQueryField],
});
