import type { INodeProperties } from 'n8n-workflow';

import { sortOrderOption } from '../../../shared/description/collections';
import { optionsCollection } from '../../../shared/description/optionsCollection';

/** The modules inventory templates serve (docs/protocol.md §5.7). */
export const inventoryModuleField: INodeProperties = {
	displayName: 'Module',
	name: 'module',
	type: 'options',
	options: [
		{ name: 'Invoices', value: 'Invoices' },
		{ name: 'Purchase Orders', value: 'Purchase_Orders' },
		{ name: 'Quotes', value: 'Quotes' },
		{ name: 'Sales Orders', value: 'Sales_Orders' },
	],
	default: 'Quotes',
	required: true,
};

/** `category`, `sort_by` and `sort_order` of both inventory-template reads. */
export const inventoryQueryOptions: INodeProperties = optionsCollection([
	{
		displayName: 'Category',
		name: 'category',
		type: 'options',
		options: [
			{ name: 'Created by Me', value: 'created_by_me' },
			{ name: 'Draft', value: 'draft' },
			{ name: 'Favorite', value: 'favorite' },
			{ name: 'Shared with Me', value: 'shared_with_me' },
		],
		default: 'favorite',
		routing: { send: { type: 'query', property: 'category' } },
	},
	{
		displayName: 'Sort By',
		name: 'sort_by',
		type: 'options',
		options: [
			{ name: 'Created Time', value: 'created_time' },
			{ name: 'Last Usage Time', value: 'last_usage_time' },
			{ name: 'Modified Time', value: 'modified_time' },
			{ name: 'Name', value: 'name' },
		],
		default: 'modified_time',
		routing: { send: { type: 'query', property: 'sort_by' } },
	},
	sortOrderOption(),
]);
