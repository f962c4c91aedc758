import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { orgDoc } from '../org.ts';
import { resultsReply, successItem } from '../shared.ts';
import type { UserDoc } from './shared.ts';
import { USERS, USER_SCOPES, applyFields, defaults, fail, takenEmails } from './shared.ts';

/** CreateUser: POST /crm/{v}/users (docs/protocol.md §5.6). */
export const createUser = operation('POST', '/users', { scopes: USER_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const items = wrapperList(ctx, 'users', 100);
	const results = store.transaction(() => {
		const taken = takenEmails(sandbox);
		return items.map((raw, index) => {
			const c = { ctx, index };
			if (!raw || typeof raw !== 'object' || Array.isArray(raw))
				return fail('INVALID_DATA', undefined, c, 'invalid data');
			const actor = sandbox.user(ctx);
			const time = sandbox.formatTime();
			const user = {
				...defaults({ id: actor.id, name: actor.name }),
				id: store.nextId(),
				last_name: '',
				full_name: '',
				email: '',
				status: 'active',
				confirm: false,
				time_zone: String(orgDoc(sandbox).time_zone ?? 'UTC'),
				created_time: time,
				Modified_Time: time,
			} as UserDoc;
			const error = applyFields(sandbox, raw as Json, user, c, taken, true);
			if (error) return error;
			taken.add(user.email.toLowerCase());
			store.putDoc(USERS, user.id, user);
			return successItem(user.id, 'User added');
		});
	});
	return resultsReply('users', 201, results);
});
