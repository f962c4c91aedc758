import { errorItem } from '../../errors.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { resultsReply, successItem } from '../shared.ts';
import type { UserDoc } from './shared.ts';
import { USERS, USER_SCOPES, fail, isPrimaryContact, touch } from './shared.ts';

/** DeleteUser: DELETE /crm/{v}/users/{id}; the user stays listed as deleted (docs/protocol.md §5.6). */
export const deleteUser = operation('DELETE', '/users/:id', { scopes: USER_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const id = ctx.params.id;
	const c = { ctx, index: 0 };
	const user = store.doc<UserDoc>(USERS, id);
	let result: Json;
	if (!user) result = errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
	else if (user.status === 'deleted')
		result = fail('ID_ALREADY_DELETED', undefined, c, 'user already deleted', { id });
	else if (isPrimaryContact(sandbox, user)) {
		result = fail(
			'INVALID_REQUEST',
			undefined,
			c,
			'primary contact cannot be deleted or deactivated',
			{ id },
		);
	} else {
		const next = { ...user, status: 'deleted' as const };
		touch(ctx, next);
		store.putDoc(USERS, id, next);
		result = successItem(id, 'User deleted');
	}
	return resultsReply('users', 200, [result]);
});
