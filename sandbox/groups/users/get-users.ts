import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { ifModifiedSince, pageOf, pagedReply, paging, paramKey } from '../../wire.ts';
import {
	USER_SCOPES,
	USER_TYPES,
	matchesType,
	modifiedAfter,
	userDocs,
	userJson,
} from './shared.ts';

/** GetUsers: GET /crm/{v}/users?type= (paged, If-Modified-Since) (docs/protocol.md §5.6). */
export const getUsers = operation('GET', '/users', { scopes: USER_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const type = ctx.q('type') ?? 'AllUsers';
	if (!(USER_TYPES as readonly string[]).includes(type)) {
		throw HttpError.invalidData({ [paramKey(ctx)]: 'type' }, 'invalid value for type');
	}
	const p = paging(ctx);
	let users = userDocs(sandbox).filter((u) => matchesType(sandbox, ctx, u, type));
	const since = ifModifiedSince(ctx);
	if (since !== undefined) {
		users = users.filter((u) => modifiedAfter(u, since));
		if (users.length === 0) return { status: 304 };
	}
	return pagedReply(
		'users',
		p,
		pageOf(users, p).map((u) => userJson(u, ctx.v)),
	);
});
