// Mail (docs/protocol.md §5.10, v2.1 only): GetEmailAddresses and SendMail, one file each, plus an
// outbox. Mails land in the docs collection `outbox` (one document per message id); scheduled mails
// move from `scheduled` to `sent` once `scheduled_time` has passed on the sandbox clock (a timer,
// and a catch-up on every send and outbox read, so moving the clock forward is honoured too).
// Attachments reference the shared file store (`files` collection, see ../files.ts) by id; at most
// 10 MB in total per mail (FILE_SIZE_EXCEEDS). A daily limit is the knob `mailDailyLimit`
// (default unlimited; LIMIT_EXCEEDED). Test hooks: GET / DELETE /__sandbox/outbox.
// Helpers, the seed and the send checks in shared.ts.
import type { Router } from '../../router.ts';
import { parseDateTime } from '../../time.ts';
import type { Sandbox } from '../../types.ts';
import { seedOnce } from '../shared.ts';
import { getEmailAddresses } from './get-email-addresses.ts';
import { sendMail } from './send-mail.ts';
import { OUTBOX, scheduleDelivery, seedMail } from './shared.ts';
import type { OutboxMail } from './shared.ts';
import { clearOutbox, getOutbox } from './test-hooks.ts';

export function registerMail(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	seedOnce(sandbox, 'mail', seedMail);
	// scheduled mails of an earlier run (file-backed store) keep their timers
	for (const mail of store.docs<OutboxMail>(OUTBOX)) {
		if (mail.status === 'scheduled')
			scheduleDelivery(sandbox, parseDateTime(mail.scheduled_time) ?? 0);
	}
	router.register([getEmailAddresses, sendMail, getOutbox, clearOutbox]);
}
