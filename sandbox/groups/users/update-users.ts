import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { USER_SCOPES, idOf, updateOne } from './shared.ts';

/** UpdateUsers: PUT /crm/{v}/users, ids in the items (docs/protocol.md §5.6). */
export const updateUsers = operation('PUT', '/users', { scopes: USER_SCOPES }, (ctx) => {
	const items = wrapperList(ctx, 'users', 100);
	const results = eachItem(ctx, items, (raw, index) =>
		updateOne(ctx, raw, index, idOf((raw as Json | null)?.id)),
	);
	return resultsReply('users', 200, results);
});
