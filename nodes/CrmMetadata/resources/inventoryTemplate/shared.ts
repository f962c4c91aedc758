import type { INodeProperties } from 'n8n-workflow';

import { sortOrderOption } from '../../../shared/description/collections';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { INVENTORY_MODULES } from '../../../shared/methods/metadata';

/** The modules inventory templates serve (docs/protocol.md §5.7, the one list INVENTORY_MODULES), by name. */
export const inventoryModuleField: INodeProperties = {
	displayName: 'Module',
	name: 'module',
	type: 'options',
	options: [...INVENTORY_MODULES]
		.sort()
		.map((module) => ({ name: module.replace(/_/g, ' '), value: module })),
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
