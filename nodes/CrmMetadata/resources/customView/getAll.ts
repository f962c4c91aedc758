import { returnAllLimit } from '../../../shared/description/properties';
import { moduleQueryField, settingsListOperation } from '../shared';

/** GetCustomViews — GET /crm/{v}/settings/custom_views?module=, paged by its request runner (crmRouting) */
export const { operation, returns, description } = settingsListOperation({
	resource: 'customView',
	things: 'custom views',
	url: '/settings/custom_views',
	rootProperty: 'custom_views',
	description: 'List the custom views of a module',
	returns:
		'one item per custom view of the module, with its id, name and whether it is the default',
	properties: [moduleQueryField, ...returnAllLimit()],
});
