import { moduleQueryField, settingsListOperation } from '../shared';

/** GetLayouts — GET /crm/{v}/settings/layouts?module= */
export const { operation, returns, description } = settingsListOperation({
	resource: 'layout',
	things: 'layouts',
	url: '/settings/layouts',
	rootProperty: 'layouts',
	description: 'List the layouts of a module with their sections and fields',
	returns: 'one item per layout of the module, with its id, name and sections with their fields',
	properties: [moduleQueryField],
});
