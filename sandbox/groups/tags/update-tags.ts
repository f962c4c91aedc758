import { operation } from '../../router.ts';
import { moduleParam } from '../modules.ts';
import { writeEach } from '../shared.ts';
import { TAG_SCOPES, TAG_WRITE_MAX, updateOne } from './shared.ts';

/** UpdateTags: PUT /crm/{v}/settings/tags?module= (docs/protocol.md §5.5). */
export const updateTags = operation('PUT', '/settings/tags', { scopes: TAG_SCOPES }, (ctx) => {
	const module = moduleParam(ctx);
	return writeEach(ctx, 'tags', TAG_WRITE_MAX, 200, (item, index) =>
		updateOne(ctx, module, item, index),
	);
});
