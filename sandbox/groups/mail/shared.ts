// Helpers shared by the mail operations (docs/protocol.md §5.10): the seed, the outbox and its
// scheduled deliveries, and the checks of a SendMail item.
import { randomBytes } from 'node:crypto';
import type { ErrorBody } from '../../errors.ts';
import { errorItem } from '../../errors.ts';
import type { Ctx } from '../../router.ts';
import type { Json, StoredRecord, UserRef } from '../../store.ts';
import { parseDateTime } from '../../time.ts';
import type { Sandbox } from '../../types.ts';

export const MAIL_ITEMS_MAX = 100;
/** total attachment size per mail (§6) */
export const MAIL_ATTACHMENTS_MAX_BYTES = 10 * 1024 * 1024;

export const OUTBOX = 'outbox';
const ORG_ADDRESSES = 'mail_org_addresses';
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** setTimeout's ceiling; later mails are caught up on the next send or outbox read */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface MailAddress {
	email: string;
	user_name?: string;
}

export interface OutboxMail {
	message_id: string;
	module: string;
	record_id: string;
	from: MailAddress;
	to: MailAddress[];
	cc: MailAddress[];
	bcc: MailAddress[];
	reply_to?: MailAddress;
	subject: string;
	content: string;
	mail_format: 'html' | 'text';
	template?: { id: string };
	attachments: Array<{ id: string; name: string; size: number; content_type: string }>;
	scheduled_time?: string;
	status: 'scheduled' | 'sent';
	created_time: string;
	sent_time?: string;
	sent_by: UserRef;
	extra?: Json;
}

interface FromAddress {
	email: string;
	type: string;
	id: string;
	user_name: string;
	default: boolean;
}

export function seedMail(sandbox: Sandbox): void {
	sandbox.store.putDoc(ORG_ADDRESSES, '4876876000000230001', {
		id: '4876876000000230001',
		email: 'sales@sandbox.example',
		user_name: 'Sandbox Sales',
		type: 'org_email',
	});
}

/** Addresses a mail may be sent from: every active user's email, then the organisation's addresses. */
export function fromAddresses(sandbox: Sandbox, ctx?: Pick<Ctx, 'token'>): FromAddress[] {
	const me = sandbox.user(ctx);
	const users = sandbox.store
		.docs<{ id: string; full_name: string; email: string; status?: string }>('users')
		.filter((u) => (u.status === undefined || u.status === 'active') && u.email);
	const org = sandbox.store.docs<{ id: string; email: string; user_name: string; type?: string }>(
		ORG_ADDRESSES,
	);
	return [
		...users.map((u) => ({
			email: u.email,
			type: 'primary',
			id: u.id,
			user_name: u.full_name,
			default: u.id === me.id,
		})),
		...org.map((o) => ({
			email: o.email,
			type: o.type ?? 'org_email',
			id: o.id,
			user_name: o.user_name,
			default: false,
		})),
	];
}

/** Moves scheduled mails whose time has come to `sent`. */
export function deliverDue(sandbox: Sandbox): number {
	if (sandbox.isClosing) return 0;
	const now = sandbox.now();
	let delivered = 0;
	for (const mail of sandbox.store.docs<OutboxMail>(OUTBOX)) {
		if (mail.status !== 'scheduled' || (parseDateTime(mail.scheduled_time) ?? 0) > now) continue;
		sandbox.store.putDoc(OUTBOX, mail.message_id, {
			...mail,
			status: 'sent',
			sent_time: sandbox.formatTime(now),
		});
		delivered++;
	}
	return delivered;
}

export function scheduleDelivery(sandbox: Sandbox, at: number): void {
	const delay = Math.max(0, at - sandbox.now());
	if (delay <= MAX_TIMER_MS) sandbox.later(delay + 5, () => void deliverDue(sandbox));
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Per-item checks of one Mail; answers the outbox document or an error item. */
export class MailChecker {
	private readonly ctx: Ctx;
	private readonly sandbox: Sandbox;
	private readonly record: StoredRecord;
	private readonly allowedFrom: Set<string>;
	private sentToday: number;

	constructor(ctx: Ctx, record: StoredRecord) {
		this.ctx = ctx;
		this.sandbox = ctx.sandbox;
		this.record = record;
		this.allowedFrom = new Set(fromAddresses(ctx.sandbox, ctx).map((a) => a.email.toLowerCase()));
		const today = dayOf(ctx.sandbox.now());
		this.sentToday = ctx.sandbox.store
			.docs<OutboxMail>(OUTBOX)
			.filter((m) => dayOf(parseDateTime(m.created_time) ?? 0) === today).length;
	}

	/** An error item; v2.1 adds `json_path` (`$.data[0].to[2].email`). */
	private fail(index: number, code: string, details: Json, message?: string): ErrorBody {
		if (this.ctx.v !== 'v2.1' || typeof details.api_name !== 'string')
			return errorItem(code, details, message);
		const parent =
			typeof details.parent_api_name === 'string' ? details.parent_api_name : undefined;
		const position = typeof details.index === 'number' ? `[${details.index}]` : '';
		const path = parent ? `${parent}${position}.${details.api_name}` : details.api_name;
		return errorItem(code, { ...details, json_path: `$.data[${index}].${path}` }, message);
	}

	private address(
		index: number,
		value: unknown,
		key: string,
		position?: number,
	): MailAddress | ErrorBody {
		const where =
			position === undefined ? { parent_api_name: key } : { parent_api_name: key, index: position };
		if (!value || typeof value !== 'object' || Array.isArray(value)) {
			return this.fail(index, 'INVALID_DATA', {
				api_name: 'email',
				...where,
				expected_data_type: 'jsonobject',
			});
		}
		const { email, user_name } = value as Json;
		if (typeof email !== 'string' || !EMAIL_RE.test(email.trim())) {
			return this.fail(
				index,
				'INVALID_DATA',
				{ api_name: 'email', ...where },
				'invalid email address',
			);
		}
		return typeof user_name === 'string' && user_name !== ''
			? { email: email.trim(), user_name }
			: { email: email.trim() };
	}

	private addressList(
		index: number,
		value: unknown,
		key: string,
		required: boolean,
	): MailAddress[] | ErrorBody {
		if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
			return required ? this.fail(index, 'MANDATORY_NOT_FOUND', { api_name: key }) : [];
		}
		if (!Array.isArray(value))
			return this.fail(index, 'INVALID_DATA', { api_name: key, expected_data_type: 'jsonarray' });
		const out: MailAddress[] = [];
		for (let i = 0; i < value.length; i++) {
			const address = this.address(index, value[i], key, i);
			if ('code' in address) return address;
			out.push(address);
		}
		return out;
	}

	check(input: unknown, index: number): OutboxMail | ErrorBody {
		const { sandbox } = this;
		if (!input || typeof input !== 'object' || Array.isArray(input))
			return errorItem('INVALID_DATA', {}, 'invalid data');
		const item = input as Json;

		if (item.from === undefined || item.from === null)
			return this.fail(index, 'MANDATORY_NOT_FOUND', { api_name: 'from' });
		const from = this.address(index, item.from, 'from');
		if ('code' in from) return from;
		if (!this.allowedFrom.has(from.email.toLowerCase())) {
			return this.fail(index, 'NOT_ALLOWED', { api_name: 'from' }, 'from address not allowed');
		}

		const to = this.addressList(index, item.to, 'to', true);
		if ('code' in to) return to;
		const cc = this.addressList(index, item.cc, 'cc', false);
		if ('code' in cc) return cc;
		const bcc = this.addressList(index, item.bcc, 'bcc', false);
		if ('code' in bcc) return bcc;
		let replyTo: MailAddress | undefined;
		if (item.reply_to !== undefined && item.reply_to !== null) {
			const r = this.address(index, item.reply_to, 'reply_to');
			if ('code' in r) return r;
			replyTo = r;
		}

		let subject = item.subject;
		let content = item.content;
		let template: { id: string } | undefined;
		if (item.template !== undefined && item.template !== null) {
			const id = typeof item.template === 'object' ? (item.template as Json).id : item.template;
			// email templates belong to the metadata group; read defensively (collection `email_templates`)
			const doc =
				id === undefined || id === null
					? undefined
					: sandbox.store.doc<Json>('email_templates', String(id));
			if (!doc)
				return this.fail(
					index,
					'INVALID_DATA',
					{ api_name: 'template' },
					'the id given seems to be invalid',
				);
			if (typeof doc.module === 'string' && doc.module !== this.ctx.module!.api_name) {
				return this.fail(
					index,
					'INVALID_DATA',
					{ api_name: 'template' },
					'the template does not belong to the module',
				);
			}
			template = { id: String(id) };
			subject = subject || doc.subject;
			content = content || doc.content || doc.body;
		}
		if (typeof subject !== 'string' || subject.trim() === '')
			return this.fail(index, 'MANDATORY_NOT_FOUND', { api_name: 'subject' });
		if (typeof content !== 'string' || content === '')
			return this.fail(index, 'MANDATORY_NOT_FOUND', { api_name: 'content' });

		const format = item.mail_format ?? 'html';
		if (format !== 'html' && format !== 'text') {
			return this.fail(
				index,
				'INVALID_DATA',
				{ api_name: 'mail_format' },
				'mail_format must be html or text',
			);
		}

		let scheduledTime: string | undefined;
		if (
			item.scheduled_time !== undefined &&
			item.scheduled_time !== null &&
			item.scheduled_time !== ''
		) {
			const at = parseDateTime(item.scheduled_time);
			if (at === undefined)
				return this.fail(index, 'INVALID_DATA', {
					api_name: 'scheduled_time',
					expected_data_type: 'datetime',
				});
			if (at <= sandbox.now()) {
				return this.fail(
					index,
					'INVALID_DATA',
					{ api_name: 'scheduled_time' },
					'the scheduled time must be in the future',
				);
			}
			scheduledTime = sandbox.formatTime(at);
		}

		const attachments: OutboxMail['attachments'] = [];
		if (item.attachments !== undefined && item.attachments !== null) {
			if (!Array.isArray(item.attachments)) {
				return this.fail(index, 'INVALID_DATA', {
					api_name: 'attachments',
					expected_data_type: 'jsonarray',
				});
			}
			for (let i = 0; i < item.attachments.length; i++) {
				const ref = item.attachments[i] as Json | undefined;
				const id = ref && typeof ref === 'object' ? ref.id : undefined;
				const file = typeof id === 'string' ? sandbox.store.doc<Json>('files', id) : undefined;
				if (!file) {
					return this.fail(
						index,
						'INVALID_DATA',
						{ api_name: 'id', parent_api_name: 'attachments', index: i },
						'no file exists with the given id',
					);
				}
				const size =
					typeof file.size === 'number'
						? file.size
						: Buffer.from(String(file.data ?? ''), 'base64').length;
				attachments.push({
					id: String(id),
					name: String(file.name ?? ''),
					size,
					content_type: String(file.contentType ?? 'application/octet-stream'),
				});
			}
			const total = attachments.reduce((sum, a) => sum + a.size, 0);
			if (total > MAIL_ATTACHMENTS_MAX_BYTES) {
				return this.fail(
					index,
					'FILE_SIZE_EXCEEDS',
					{ api_name: 'attachments', size: total, allowed_limit: MAIL_ATTACHMENTS_MAX_BYTES },
					'total file size should not exceed 10MB',
				);
			}
		}

		// the record's own address opted out of mail
		const recordEmail =
			typeof this.record.Email === 'string' ? this.record.Email.toLowerCase() : undefined;
		if (
			this.record.Email_Opt_Out === true &&
			recordEmail &&
			to.some((a) => a.email.toLowerCase() === recordEmail)
		) {
			return this.fail(
				index,
				'NOT_ALLOWED',
				{ api_name: 'to', reason: 'recipient opted out' },
				'recipient opted out',
			);
		}

		const dailyLimit = Number(sandbox.config.knobs.mailDailyLimit ?? 0);
		if (dailyLimit > 0 && this.sentToday >= dailyLimit) {
			return this.fail(
				index,
				'LIMIT_EXCEEDED',
				{ period: 'day', allowed_limit: dailyLimit },
				'daily limit exceeded',
			);
		}
		this.sentToday++;

		const extra: Json = {};
		for (const key of [
			'in_reply_to',
			'org_email',
			'consent_email',
			'paper_type',
			'view_type',
			'inventory_details',
		]) {
			if (item[key] !== undefined) extra[key] = item[key];
		}
		return {
			message_id: randomBytes(16).toString('hex'),
			module: this.ctx.module!.api_name,
			record_id: this.record.id,
			from,
			to,
			cc,
			bcc,
			...(replyTo ? { reply_to: replyTo } : {}),
			subject,
			content,
			mail_format: format,
			...(template ? { template } : {}),
			attachments,
			...(scheduledTime ? { scheduled_time: scheduledTime } : {}),
			status: scheduledTime ? 'scheduled' : 'sent',
			created_time: sandbox.formatTime(),
			...(scheduledTime ? {} : { sent_time: sandbox.formatTime() }),
			sent_by: sandbox.user(this.ctx),
			...(Object.keys(extra).length ? { extra } : {}),
		};
	}
}
