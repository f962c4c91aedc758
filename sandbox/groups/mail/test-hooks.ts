// Test hooks of the mail group under /__sandbox (not part of the CRM service): the outbox.
import { operation } from '../../router.ts';
import type { OutboxMail } from './shared.ts';
import { OUTBOX, deliverDue } from './shared.ts';

const admin = { root: 'admin' as const, public: true };

/** the outbox, oldest first; `?status=sent|scheduled`, `?record_id=` filter */
export const getOutbox = operation('GET', '/outbox', admin, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	deliverDue(sandbox);
	const status = ctx.q('status');
	const recordId = ctx.q('record_id');
	const outbox = store
		.docs<OutboxMail>(OUTBOX)
		.filter((m) => (!status || m.status === status) && (!recordId || m.record_id === recordId));
	return { body: { outbox } };
});

export const clearOutbox = operation('DELETE', '/outbox', admin, (ctx) => {
	const { store } = ctx.sandbox;
	const cleared = store.docs(OUTBOX).length;
	store.clearDocs(OUTBOX);
	return { body: { cleared } };
});
