import { operation } from '../../router.ts';
import { moduleParam } from '../modules.ts';
import { writeEach } from '../shared.ts';
import { TAG_SCOPES, updateOne } from './shared.ts';

/** UpdateTag: PUT /crm/{v}/settings/tags/{id}?module= (docs/protocol.md §5.5). */
export const updateTag = operation('PUT', '/settings/tags/:id', { scopes: TAG_SCOPES }, (ctx) => {
	const module = moduleParam(ctx);
	return writeEach(ctx, 'tags', 1, 200, (item, index) =>
		updateOne(ctx, module, item, index, ctx.params.id),
	);
});
