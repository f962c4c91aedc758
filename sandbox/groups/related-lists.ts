// Related lists (docs/protocol.md §5.7): GetRelatedLists, GetRelatedList, derived from the stored
// module definitions (`module.related_lists`). Ids are stable: module id digits + `3` + sequence.
// An unknown related-list id answers 204 (the group's code set has no INVALID_DATA; as GetField).
import type { StoredModule } from '../metadata.ts';
import type { Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Json } from '../store.ts';
import { moduleParam, storedModules } from './modules.ts';

const RELATED_LISTS_READ = [['CRM.settings.related_lists.READ']];

export function relatedListId(module: StoredModule, sequence: number): string {
	return `${module.id.slice(0, 10)}${module.id.slice(-4)}3${String(sequence).padStart(4, '0')}`;
}

/** The related lists of a module as the contract renders them (every value a String but `id`). */
function relatedListsJson(module: StoredModule): Json[] {
	return module.related_lists.map((rl, i) => ({
		id: relatedListId(module, i + 1),
		sequence_number: String(i + 1),
		display_label: rl.display_label,
		api_name: rl.api_name,
		module: rl.module,
		name: rl.api_name,
		action: null,
		href: `${module.api_name}/{ENTITYID}/${rl.api_name}`,
		type: 'default',
		connectedmodule: null,
		linkingmodule: null,
	}));
}

export const getRelatedLists = operation(
	'GET',
	'/settings/related_lists',
	{ scopes: RELATED_LISTS_READ },
	(ctx) => {
		const module = moduleParam(ctx);
		const lists = relatedListsJson(module);
		if (lists.length === 0) return { status: 204 };
		return { body: { related_lists: lists } };
	},
);

const getRelatedList = operation(
	'GET',
	'/settings/related_lists/:id',
	{ scopes: RELATED_LISTS_READ },
	(ctx) => {
		const { sandbox } = ctx;
		const modules = ctx.q('module') === undefined ? storedModules(sandbox) : [moduleParam(ctx)];
		for (const module of modules) {
			const found = relatedListsJson(module).find((rl) => rl.id === ctx.params.id);
			if (found) return { body: { related_lists: [found] } };
		}
		return { status: 204 };
	},
);

export function registerRelatedLists(router: Router): void {
	router.register([getRelatedLists, getRelatedList]);
}
