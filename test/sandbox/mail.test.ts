// Contract tests of Mail (docs/protocol.md §5.10, §6, §3.8, §2.3) over HTTP, with the outbox test hook.
import type { ApiInit, RunningSandbox } from '../harness/sandbox.ts';
import { api, grantToken, startTestSandbox } from '../harness/sandbox.ts';
import { waitFor } from '../harness/wait.ts';

let sb: RunningSandbox;
let url: string;
let token: string;
let leadId: string;
let leadEmail: string;

const ADMIN = 'admin@sandbox.example';
const MB = 1024 * 1024;

beforeAll(async () => {
	sb = await startTestSandbox();
	url = sb.url;
	token = await freshToken();
	const created = await call('POST', '/crm/v2.1/Leads', {
		body: { data: [{ Last_Name: 'Mailable', Email: 'mailable.lead@example.com' }] },
	});
	leadId = created.body.data[0].details.id;
	leadEmail = 'mailable.lead@example.com';
});
afterAll(async () => await sb.close());

const freshToken = async () =>
	(
		await grantToken(url, {
			scope: 'CRM.modules.ALL,CRM.settings.ALL,CRM.send_mail.all.CREATE,CRM.files.ALL',
		})
	).access_token;

async function call(method: string, path: string, init: Omit<ApiInit, 'method'> = {}, tok = token) {
	return await api(`${url}${path}`, tok, { ...init, method });
}

const sendMail = async (
	data: unknown[],
	options: { v?: string; module?: string; id?: string; tok?: string } = {},
) =>
	await call(
		'POST',
		`/crm/${options.v ?? 'v2.1'}/${options.module ?? 'Leads'}/${options.id ?? leadId}/actions/send_mail`,
		{ body: { data } },
		options.tok,
	);

const mail = (extra: Record<string, unknown> = {}) => ({
	from: { email: ADMIN, user_name: 'Sandbox Admin' },
	to: [{ email: leadEmail, user_name: 'Mailable' }],
	subject: 'Hello',
	content: '<p>Hi there</p>',
	...extra,
});

async function outbox(query = ''): Promise<any[]> {
	const res = await api(`${url}/__sandbox/outbox${query}`);
	expect(res.status).toBe(200);
	return res.body.outbox;
}

async function upload(files: Array<{ name: string; bytes: number }>): Promise<string[]> {
	const form = new FormData();
	for (const f of files)
		form.append('file', new Blob([new Uint8Array(f.bytes)], { type: 'application/pdf' }), f.name);
	const res = await fetch(`${url}/crm/v2.1/files?type=inline`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}` },
		body: form,
	});
	const body = (await res.json()) as any;
	expect(res.status).toBe(201);
	return body.data.map((d: any) => d.details.id);
}

/** `ms` after the sandbox clock's now (POST /__sandbox/clock moving it by 0 answers it, docs/protocol.md §14), in whole seconds */
async function inFuture(ms: number): Promise<string> {
	const now = Date.parse(
		(await api(`${url}/__sandbox/clock`, undefined, { method: 'POST', body: { advance_ms: 0 } }))
			.body.now,
	);
	return new Date(now + ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

describe('GetEmailAddresses', () => {
	test('active users (the caller is the default) and the organisation address', async () => {
		const res = await call('GET', '/crm/v2.1/settings/emails/actions/from_addresses');
		expect(res.status).toBe(200);
		const addresses = res.body.from_addresses;
		expect(addresses.find((a: any) => a.email === ADMIN)).toEqual({
			email: ADMIN,
			type: 'primary',
			id: '4876876000000225013',
			user_name: 'Sandbox Admin',
			default: true,
		});
		expect(addresses.filter((a: any) => a.default)).toHaveLength(1);
		expect(addresses.find((a: any) => a.type === 'org_email')).toMatchObject({
			email: 'sales@sandbox.example',
			default: false,
		});
		// a disabled user has no from address
		expect(addresses.some((a: any) => a.email === 'tom.becker@sandbox.example')).toBe(false);
		for (const a of addresses)
			expect(Object.keys(a).sort()).toEqual(['default', 'email', 'id', 'type', 'user_name']);
	});

	test('v2.1 only; needs CRM.settings.emails.READ', async () => {
		const v2 = await call('GET', '/crm/v2/settings/emails/actions/from_addresses');
		expect(v2.status).toBe(404);
		expect(v2.body.code).toBe('INVALID_URL_PATTERN');
		const narrow = (await grantToken(url, { scope: 'CRM.send_mail.all.CREATE' })).access_token;
		expect(
			(await call('GET', '/crm/v2.1/settings/emails/actions/from_addresses', {}, narrow)).status,
		).toBe(401);
		const exact = (await grantToken(url, { scope: 'CRM.settings.emails.READ' })).access_token;
		expect(
			(await call('GET', '/crm/v2.1/settings/emails/actions/from_addresses', {}, exact)).status,
		).toBe(200);
	});
});

describe('SendMail', () => {
	beforeEach(async () => {
		await api(`${url}/__sandbox/outbox`, undefined, { method: 'DELETE' });
	});

	test('immediate: 200 "sent successfully" with a message id; the outbox holds the sent mail', async () => {
		const res = await sendMail([
			mail({
				cc: [{ email: 'cc@example.com' }],
				bcc: [{ email: 'bcc@example.com' }],
				reply_to: { email: 'sales@sandbox.example' },
			}),
		]);
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(1);
		const [item] = res.body.data;
		expect(item).toEqual({
			code: 'SUCCESS',
			details: { message_id: expect.stringMatching(/^[0-9a-f]{32}$/) },
			message: 'sent successfully',
			status: 'success',
		});
		const [stored] = await outbox();
		expect(stored).toMatchObject({
			message_id: item.details.message_id,
			module: 'Leads',
			record_id: leadId,
			status: 'sent',
			from: { email: ADMIN, user_name: 'Sandbox Admin' },
			to: [{ email: leadEmail, user_name: 'Mailable' }],
			cc: [{ email: 'cc@example.com' }],
			bcc: [{ email: 'bcc@example.com' }],
			reply_to: { email: 'sales@sandbox.example' },
			subject: 'Hello',
			content: '<p>Hi there</p>',
			mail_format: 'html',
			attachments: [],
		});
		expect(stored.sent_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
	});

	test('scheduled: 202 "scheduled successfully"; sent once the sandbox clock passes scheduled_time', async () => {
		const at = await inFuture(3_600_000);
		const res = await sendMail([mail({ scheduled_time: at })]);
		expect(res.status).toBe(202);
		expect(res.body.data[0]).toMatchObject({
			code: 'SUCCESS',
			message: 'scheduled successfully',
			status: 'success',
		});
		const id = res.body.data[0].details.message_id;
		expect(await outbox('?status=scheduled')).toEqual([
			expect.objectContaining({ message_id: id, scheduled_time: at, status: 'scheduled' }),
		]);
		expect(await outbox('?status=sent')).toEqual([]);
		await api(`${url}/__sandbox/clock`, undefined, {
			method: 'POST',
			body: { advance_ms: 3_601_000 },
		});
		expect(await outbox('?status=sent')).toEqual([
			expect.objectContaining({ message_id: id, status: 'sent' }),
		]);
		// the hour that passed expired the access token
		token = await freshToken();
	});

	test('scheduled a moment ahead: delivered by the timer without any request', async () => {
		const res = await sendMail([mail({ scheduled_time: await inFuture(1500) })]);
		expect(res.status).toBe(202);
		const id = res.body.data[0].details.message_id;
		// the store's outbox row turns 'sent' when the timer fires (no request involved); read in the
		// store, since every outbox read over HTTP (GET /__sandbox/outbox) first catches up itself
		const stored = await waitFor(() => sb.sandbox.store.doc<any>('outbox', id), {
			ok: (doc) => doc?.status === 'sent',
			timeout: 5000,
		});
		expect(stored.status).toBe('sent');
	});

	test('a batch with some failures: per-item results in order, status of a full success', async () => {
		const res = await sendMail([
			mail(),
			mail({ from: { email: 'stranger@example.com' } }),
			mail({ to: [{ email: 'ok@example.com' }, { email: 'not-an-address' }] }),
			mail({ subject: '' }),
			mail({ content: undefined }),
			mail({ to: [] }),
			mail({ from: undefined }),
			mail({ scheduled_time: '2001-01-01T00:00:00+00:00' }),
			mail({ scheduled_time: 'tomorrow' }),
			mail({ attachments: [{ id: 'no-such-file' }] }),
			mail({ mail_format: 'rtf' }),
		]);
		expect(res.status).toBe(200);
		const [ok, from, to, subject, content, noTo, noFrom, past, badTime, file, format] =
			res.body.data;
		expect(ok.status).toBe('success');
		expect(from).toEqual({
			code: 'NOT_ALLOWED',
			details: { api_name: 'from', json_path: '$.data[1].from' },
			message: 'from address not allowed',
			status: 'error',
		});
		expect(to).toMatchObject({
			code: 'INVALID_DATA',
			details: {
				api_name: 'email',
				parent_api_name: 'to',
				index: 1,
				json_path: '$.data[2].to[1].email',
			},
		});
		expect(subject).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'subject' },
		});
		expect(content).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'content' },
		});
		expect(noTo).toMatchObject({ code: 'MANDATORY_NOT_FOUND', details: { api_name: 'to' } });
		expect(noFrom).toMatchObject({ code: 'MANDATORY_NOT_FOUND', details: { api_name: 'from' } });
		expect(past).toMatchObject({ code: 'INVALID_DATA', details: { api_name: 'scheduled_time' } });
		expect(badTime).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'scheduled_time', expected_data_type: 'datetime' },
		});
		expect(file).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'id', parent_api_name: 'attachments', index: 0 },
			message: 'no file exists with the given id',
		});
		expect(format).toMatchObject({ code: 'INVALID_DATA', details: { api_name: 'mail_format' } });
		expect(await outbox()).toHaveLength(1);
	});

	test('every item failed: 400 with the item list', async () => {
		const res = await sendMail([mail({ from: { email: 'stranger@example.com' } })]);
		expect(res.status).toBe(400);
		expect(res.body.data[0].code).toBe('NOT_ALLOWED');
	});

	test('attachments from the shared file store: listed in the outbox; more than 10 MB in total is FILE_SIZE_EXCEEDS', async () => {
		const [small, other] = await upload([
			{ name: 'quote.pdf', bytes: 2048 },
			{ name: 'terms.pdf', bytes: 1024 },
		]);
		const ok = await sendMail([mail({ attachments: [{ id: small }, { id: other }] })]);
		expect(ok.status).toBe(200);
		const [stored] = await outbox();
		expect(stored.attachments).toEqual([
			{ id: small, name: 'quote.pdf', size: 2048, content_type: 'application/pdf' },
			{ id: other, name: 'terms.pdf', size: 1024, content_type: 'application/pdf' },
		]);

		const big = await upload([
			{ name: 'a.pdf', bytes: 6 * MB },
			{ name: 'b.pdf', bytes: 5 * MB },
		]);
		const tooBig = await sendMail([mail({ attachments: big.map((id) => ({ id })) })]);
		expect(tooBig.status).toBe(400);
		expect(tooBig.body.data[0]).toEqual({
			code: 'FILE_SIZE_EXCEEDS',
			details: {
				api_name: 'attachments',
				size: 11 * MB,
				allowed_limit: 10 * MB,
				json_path: '$.data[0].attachments',
			},
			message: 'total file size should not exceed 10MB',
			status: 'error',
		});
		const exactly = await upload([{ name: 'c.pdf', bytes: 10 * MB }]);
		expect((await sendMail([mail({ attachments: [{ id: exactly[0] }] })])).status).toBe(200);
	});

	test('a template of the module gives subject and content; another module’s template is refused', async () => {
		// the templates as GetEmailTemplates lists them; the content from GetEmailTemplate
		const reader = (await grantToken(url, { scope: 'CRM.templates.email.READ' })).access_token;
		const listed = async (module: string) =>
			(await call('GET', '/crm/v2.1/settings/email_templates', { query: { module } }, reader)).body
				.email_templates as any[];
		const leadsId = (await listed('Leads')).find((t) => t.subject)?.id;
		expect(leadsId).toBeDefined();
		const leadsTemplate = (
			await call('GET', `/crm/v2.1/settings/email_templates/${leadsId}`, {}, reader)
		).body.email_templates[0];
		const [otherTemplate] = await listed('Contacts');
		expect(otherTemplate).toBeDefined();
		const res = await sendMail([
			mail({ subject: undefined, content: undefined, template: { id: leadsTemplate.id } }),
			mail({ subject: undefined, content: undefined, template: { id: otherTemplate.id } }),
			mail({ template: { id: '4876876000000999999' } }),
		]);
		expect(res.body.data[0].status).toBe('success');
		expect(res.body.data[1]).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'template' },
		});
		expect(res.body.data[2]).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'template' },
		});
		const [stored] = await outbox();
		expect(stored).toMatchObject({
			subject: leadsTemplate.subject,
			content: leadsTemplate.content,
			template: { id: leadsTemplate.id },
		});
	});

	test('a recipient who opted out is refused', async () => {
		const created = await call('POST', '/crm/v2.1/Contacts', {
			body: {
				data: [{ Last_Name: 'Optout', Email: 'opted.out@example.com', Email_Opt_Out: true }],
			},
		});
		const id = created.body.data[0].details.id;
		const res = await sendMail(
			[
				mail({ to: [{ email: 'OPTED.OUT@example.com' }] }),
				mail({ to: [{ email: 'someone.else@example.com' }] }),
			],
			{
				module: 'Contacts',
				id,
			},
		);
		expect(res.status).toBe(200);
		expect(res.body.data[0]).toMatchObject({
			code: 'NOT_ALLOWED',
			details: { api_name: 'to', reason: 'recipient opted out' },
		});
		expect(res.body.data[1].status).toBe('success');
	});

	test('the daily limit knob: LIMIT_EXCEEDED "daily limit exceeded" once reached', async () => {
		sb.sandbox.config.knobs.mailDailyLimit = 2;
		try {
			const res = await sendMail([mail(), mail(), mail()]);
			expect(res.status).toBe(200);
			expect(res.body.data.map((i: any) => i.status)).toEqual(['success', 'success', 'error']);
			expect(res.body.data[2]).toMatchObject({
				code: 'LIMIT_EXCEEDED',
				details: { period: 'day', allowed_limit: 2 },
				message: 'daily limit exceeded',
			});
			expect((await sendMail([mail()])).status).toBe(400);
		} finally {
			delete sb.sandbox.config.knobs.mailDailyLimit;
		}
	});

	test('request-level errors: unknown record, unknown module, wrapper bounds, v2, scopes', async () => {
		const unknown = await sendMail([mail()], { id: '4876876000000000999' });
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876000000000999', resource_path_index: 1 },
		});
		const module = await sendMail([mail()], { module: 'Widgets' });
		expect(module.body.code).toBe('INVALID_MODULE');
		expect((await sendMail([])).body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'data' },
		});
		expect((await sendMail(Array.from({ length: 101 }, () => mail()))).body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 100 },
		});
		const v2 = await sendMail([mail()], { v: 'v2' });
		expect(v2.status).toBe(404);
		expect(v2.body.code).toBe('INVALID_URL_PATTERN');

		const leadsOnly = (await grantToken(url, { scope: 'CRM.send_mail.leads.CREATE' })).access_token;
		expect((await sendMail([mail()], { tok: leadsOnly })).status).toBe(200);
		const contact = await call('POST', '/crm/v2.1/Contacts', {
			body: { data: [{ Last_Name: 'Scoped' }] },
		});
		const denied = await sendMail([mail()], {
			tok: leadsOnly,
			module: 'Contacts',
			id: contact.body.data[0].details.id,
		});
		expect(denied.status).toBe(401);
		expect(denied.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});

	test('outbox hook filters by record and clears', async () => {
		await sendMail([mail()]);
		expect((await outbox(`?record_id=${leadId}`)).length).toBe(1);
		expect(await outbox('?record_id=1')).toEqual([]);
		const cleared = await api(`${url}/__sandbox/outbox`, undefined, { method: 'DELETE' });
		expect(cleared.body).toEqual({ cleared: 1 });
		expect(await outbox()).toEqual([]);
	});
});
