import { operation } from '../../router.ts';
import { ifModifiedSince } from '../../wire.ts';
import type { UserDoc } from './shared.ts';
import { USERS, USER_SCOPES, modifiedAfter, userJson } from './shared.ts';

/** GetUser: GET /crm/{v}/users/{id} (docs/protocol.md §5.6). */
export const getUser = operation('GET', '/users/:id', { scopes: USER_SCOPES }, (ctx) => {
	const { store } = ctx.sandbox;
	const user = store.doc<UserDoc>(USERS, ctx.params.id);
	if (!user) return { status: 204 };
	const since = ifModifiedSince(ctx);
	if (since !== undefined && !modifiedAfter(user, since)) return { status: 304 };
	return {
		body: {
			users: [userJson(user, ctx.v)],
			info: { per_page: 200, count: 1, page: 1, more_records: false },
		},
	};
});
