import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { parseDateTime } from '../../time.ts';
import { wrapperList } from '../../wire.ts';
import type { OutboxMail } from './shared.ts';
import { MAIL_ITEMS_MAX, MailChecker, OUTBOX, deliverDue, scheduleDelivery } from './shared.ts';

/** SendMail: POST /crm/{v}/{module}/{id}/actions/send_mail (docs/protocol.md §5.10). */
export const sendMail = operation(
	'POST',
	'/:module/:id/actions/send_mail',
	{ v21Only: true, scopes: [['CRM.send_mail.{mod}.CREATE']] },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		deliverDue(sandbox);
		const module = ctx.module!;
		const record = store.getRecord(module.api_name, ctx.params.id);
		if (!record) {
			throw HttpError.invalidData(
				{ id: ctx.params.id, ...(ctx.v === 'v2.1' ? { resource_path_index: 1 } : {}) },
				'the id given seems to be invalid',
			);
		}
		const items = wrapperList(ctx, 'data', MAIL_ITEMS_MAX);
		const checker = new MailChecker(ctx, record);
		const mails: OutboxMail[] = [];
		const results = items.map((item, index) => {
			const mail = checker.check(item, index);
			if ('code' in mail) return mail;
			mails.push(mail);
			return {
				code: 'SUCCESS',
				details: { message_id: mail.message_id },
				message: mail.status === 'scheduled' ? 'scheduled successfully' : 'sent successfully',
				status: 'success',
			};
		});
		store.transaction(() => {
			for (const mail of mails) store.putDoc(OUTBOX, mail.message_id, mail);
		});
		for (const mail of mails)
			if (mail.scheduled_time) scheduleDelivery(sandbox, parseDateTime(mail.scheduled_time)!);
		const status =
			mails.length === 0 ? 400 : mails.every((m) => m.status === 'scheduled') ? 202 : 200;
		return { status, body: { data: results } };
	},
);
