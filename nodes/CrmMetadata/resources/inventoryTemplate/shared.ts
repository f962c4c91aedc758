import type { INodeProperties } from 'n8n-workflow';

import {
	optionsField,
	sendAsQuery,
	sortOrderOption,
} from '../../../shared/description/collections';
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
	optionsField(
		'Category',
		'category',
		{
			'Created by Me': 'created_by_me',
			Draft: 'draft',
			Favorite: 'favorite',
			'Shared with Me': 'shared_with_me',
		},
		'favorite',
		sendAsQuery('category'),
	),
	optionsField(
		'Sort By',
		'sort_by',
		{
			'Created Time': 'created_time',
			'Last Usage Time': 'last_usage_time',
			'Modified Time': 'modified_time',
			Name: 'name',
		},
		'modified_time',
		sendAsQuery('sort_by'),
	),
	sortOrderOption(),
]);
