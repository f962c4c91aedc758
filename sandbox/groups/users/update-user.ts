import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { resultsReply } from '../shared.ts';
import { USER_SCOPES, updateOne } from './shared.ts';

/** UpdateUser: PUT /crm/{v}/users/{id} (docs/protocol.md §5.6). */
export const updateUser = operation('PUT', '/users/:id', { scopes: USER_SCOPES }, (ctx) => {
	const { store } = ctx.sandbox;
	const items = wrapperList(ctx, 'users', 1);
	const results = store.transaction(() => [updateOne(ctx, items[0], 0, ctx.params.id)]);
	return resultsReply('users', 200, results);
});
