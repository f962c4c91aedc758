import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { listReply, paramKey } from '../../wire.ts';
import { moduleParam } from '../modules.ts';
import { TAG_SCOPES, tagJson, tagsOfModule } from './shared.ts';

/** GetTags: GET /crm/{v}/settings/tags?module= (docs/protocol.md §5.5). */
export const getTags = operation('GET', '/settings/tags', { scopes: TAG_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { config } = sandbox;
	const module = moduleParam(ctx);
	const myTags = ctx.q('my_tags');
	if (myTags !== undefined && myTags !== 'true' && myTags !== 'false') {
		throw HttpError.invalidData({ [paramKey(ctx)]: 'my_tags' });
	}
	const all = tagsOfModule(sandbox, module.api_name);
	const userId = sandbox.user(ctx).id;
	const tags = myTags === 'true' ? all.filter((t) => t.created_by.id === userId) : all;
	return listReply('tags', tags.map(tagJson), {
		info: { count: tags.length, allowed_count: config.tagsPerModule },
	});
});
