import { operation } from '../../router.ts';
import { unknownId } from '../modules.ts';
import { INVENTORY_READ, findTemplate, inventoryQuery, templateJson } from './shared.ts';

/** GetInventoryTemplatebyID: GET /crm/{v}/settings/inventory_templates/{id} (docs/protocol.md §5.7). */
export const getInventoryTemplatebyID = operation(
	'GET',
	'/settings/inventory_templates/:id',
	{ scopes: INVENTORY_READ, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		// category / sort_by / sort_order are validated; they do not filter a read by id
		inventoryQuery(ctx);
		const doc = findTemplate(sandbox, 'inventory', ctx.params.id);
		if (!doc) throw unknownId(ctx, ctx.params.id);
		return {
			body: {
				inventory_templates: [templateJson(sandbox, doc, true)],
				info: { per_page: 1, count: 1, page: 1, more_records: false },
			},
		};
	},
);
