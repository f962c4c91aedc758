import { operation } from '../../router.ts';
import { pageOf, pagedReply, paging } from '../../wire.ts';
import {
	INVENTORY_READ,
	inCategory,
	inventoryQuery,
	sortTemplates,
	supportedModule,
	templateJson,
	templatesOf,
} from './shared.ts';

/** GetInventoryTemplates: GET /crm/{v}/settings/inventory_templates (docs/protocol.md §5.7). */
export const getInventoryTemplates = operation(
	'GET',
	'/settings/inventory_templates',
	{ scopes: INVENTORY_READ, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const module = supportedModule(ctx, 'inventory');
		const { category, sortBy, sortOrder } = inventoryQuery(ctx);
		const p = paging(ctx);
		const userId = String(sandbox.user(ctx).id);
		const docs = sortTemplates(
			templatesOf(sandbox, 'inventory').filter(
				(t) => t.module === module.api_name && inCategory(t, category, userId),
			),
			sortBy,
			sortOrder,
		);
		return pagedReply(
			'inventory_templates',
			p,
			pageOf(docs, p).map((t) => templateJson(sandbox, t, false)),
			{ sort_by: sortBy, sort_order: sortOrder },
		);
	},
);
