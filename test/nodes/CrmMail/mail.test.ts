// CRM Mail › Mail › Send and › From Address › Get Many through the n8n engine against the sandbox,
// asserting the sandbox's outbox (GET /__sandbox/outbox) and the files over the API.
import type { INodeExecutionData } from 'n8n-workflow';

import { getFromAddresses } from '../../../nodes/CrmMail/methods';
import { crmFixture, useCrmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

const ADMIN = 'admin@sandbox.example';
const MB = 1024 * 1024;

const binary = (fileName: string, mimeType: string, data: Buffer) => ({
	data: data.toString('base64'),
	mimeType,
	fileName,
});

describe('CRM Mail (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	let leadId: string;

	beforeAll(async () => {
		crm = await crmFixture();
		const created = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [{ Last_Name: 'Mail Target', Email: 'mail.target@example.com' }],
		});
		leadId = created.body.data[0].details.id;
	});
	afterAll(async () => await crm.close());
	beforeEach(async () => {
		await crm.hook('DELETE', '/outbox');
		await crm.clearRequests();
	});

	/** the sandbox's outbox, oldest first (GET /__sandbox/outbox) */
	const outbox = async (): Promise<any[]> => (await crm.hook('GET', '/outbox')).body.outbox;
	const calls = async (part: string) => (await crm.requests()).filter((r) => r.url.includes(part));

	const sendNode = (params: Record<string, unknown> = {}, extra = {}) =>
		crm.node(
			'crmMail',
			{
				resource: 'mail',
				operation: 'send',
				module: 'Leads',
				recordId: leadId,
				from: ADMIN,
				to: 'Mail Target <mail.target@example.com>',
				subject: 'Your quote',
				content: '<p>Please find the quote attached.</p>',
				...params,
			},
			extra,
		);

	test('From Address › Get Many lists the addresses mails can be sent from', async () => {
		const node = crm.node('crmMail', { resource: 'fromAddress', operation: 'getAll' });
		const out = outputOf(await crm.run(node), node.name);
		const direct = await crm.api('GET', '/crm/v2.1/settings/emails/actions/from_addresses');
		expect(out.map((i) => i.json)).toEqual(direct.body.from_addresses);
		expect(out.find((i) => i.json.default === true)?.json).toMatchObject({
			email: ADMIN,
			type: 'primary',
		});
		expect(out.some((i) => i.json.type === 'org_email')).toBe(true);
	});

	test('the From list offers the from addresses, default first', async () => {
		const options = await getFromAddresses.call({
			getCredentials: async () => crm.helper.store.crmOAuth2Api,
			getNode: () => ({ name: 'CRM Mail' }),
			helpers: {
				httpRequestWithAuthentication: async (_c: string, o: any) => {
					const res = await fetch(`${o.url}`, {
						headers: {
							Authorization: `Bearer ${(crm.helper.store.crmOAuth2Api.oauthTokenData as any).access_token}`,
						},
					});
					return { statusCode: res.status, headers: {}, body: await res.json() };
				},
			},
		} as any);
		expect(options[0]).toEqual({
			name: `Sandbox Admin <${ADMIN}>`,
			value: ADMIN,
			description: 'primary (default)',
		});
		expect(options.map((option) => option.value)).toContain('sales@sandbox.example');
	});

	test('Send: a mail from a record lands in the outbox as sent', async () => {
		const node = sendNode({
			options: {
				cc: 'boss@example.com; "Doe, Jane" <jane@example.com>',
				replyTo: 'sales@sandbox.example',
				mailFormat: 'text',
			},
		});
		const out = outputOf(await crm.run(node), node.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			code: 'SUCCESS',
			status: 'success',
			message: 'sent successfully',
		});
		const [mail] = await outbox();
		expect(out[0].json.message_id).toBe(mail.message_id);
		expect(mail).toMatchObject({
			module: 'Leads',
			record_id: leadId,
			status: 'sent',
			from: { email: ADMIN },
			to: [{ email: 'mail.target@example.com', user_name: 'Mail Target' }],
			cc: [{ email: 'boss@example.com' }, { email: 'jane@example.com', user_name: 'Doe, Jane' }],
			reply_to: { email: 'sales@sandbox.example' },
			subject: 'Your quote',
			content: '<p>Please find the quote attached.</p>',
			mail_format: 'text',
			attachments: [],
		});
	});

	test('Send: attachments from input binaries are uploaded to the file store and referenced by id', async () => {
		const pdf = Buffer.from('%PDF-1.4 quote body');
		const csv = Buffer.from('a,b\n1,2\n');
		const input: INodeExecutionData[] = [
			{
				json: {},
				binary: {
					data: binary('quote.pdf', 'application/pdf', pdf),
					sheet: binary('lines.csv', 'text/csv', csv),
				},
			},
		];
		const node = sendNode({ options: { attachments: 'data, sheet' } });
		const out = outputOf(await crm.run(node, input), node.name);
		expect(out[0].json.status).toBe('success');
		expect(await calls('/crm/v2.1/files')).toHaveLength(1);
		const [mail] = await outbox();
		expect(mail.attachments.map((a: any) => [a.name, a.size, a.content_type])).toEqual([
			['quote.pdf', pdf.length, 'application/pdf'],
			['lines.csv', csv.length, 'text/csv'],
		]);
		// the stored files hold the bytes of the binaries
		const files = await Promise.all(
			mail.attachments.map(async (a: any) => await crm.download(`/crm/v2.1/files?id=${a.id}`)),
		);
		expect(files.map((f) => f.status)).toEqual([200, 200]);
		expect(files.map((f) => f.bytes)).toEqual([pdf, csv]);
	});

	test('Send: more than 10 MB of attachments is refused before anything is sent', async () => {
		const input: INodeExecutionData[] = [
			{
				json: {},
				binary: {
					a: binary('a.bin', 'application/octet-stream', Buffer.alloc(6 * MB, 1)),
					b: binary('b.bin', 'application/octet-stream', Buffer.alloc(5 * MB, 2)),
				},
			},
		];
		const node = sendNode({ options: { attachments: 'a,b' } });
		const error = errorOf(await crm.run(node, input), node.name);
		expect(error?.message).toBe(
			'The attachments of the parameter "Attachment Binary Properties" total 11.0 MB; the CRM allows at most 10 MB per mail',
		);
		expect(await calls('/files')).toHaveLength(0);
		expect(await calls('send_mail')).toHaveLength(0);
		expect(await outbox()).toEqual([]);
	});

	test('Send: a scheduled time makes the mail wait in the outbox until it passes', async () => {
		const node = sendNode({ options: { scheduledTime: '2030-05-01T09:30:00+02:00' } });
		const out = outputOf(await crm.run(node), node.name);
		expect(out[0].json).toMatchObject({ status: 'success', message: 'scheduled successfully' });
		const [mail] = await outbox();
		expect(mail).toMatchObject({
			status: 'scheduled',
			scheduled_time: '2030-05-01T07:30:00+00:00',
		});
	});

	test('Send: items for the same record share one request; results pair with their items', async () => {
		const node = sendNode({ to: '={{ $json.to }}', subject: '={{ "Hello " + $json.name }}' });
		const out = outputOf(
			await crm.run(node, [
				{ json: { to: 'one@example.com', name: 'One' } },
				{ json: { to: 'two@example.com', name: 'Two' } },
				{ json: { to: 'three@example.com', name: 'Three' } },
			]),
			node.name,
		);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(await calls('send_mail')).toHaveLength(1);
		const mails = await outbox();
		expect(mails.map((m) => [m.to[0].email, m.subject])).toEqual([
			['one@example.com', 'Hello One'],
			['two@example.com', 'Hello Two'],
			['three@example.com', 'Hello Three'],
		]);
		expect(out.map((i) => i.json.message_id)).toEqual(mails.map((m) => m.message_id));
	});

	test('Send: a template supplies subject and content', async () => {
		const listed = (await crm.api('GET', '/crm/v2.1/settings/email_templates?module=Leads')).body
			.email_templates as any[];
		const { id } = listed.find((t) => t.subject);
		const template = (await crm.api('GET', `/crm/v2.1/settings/email_templates/${id}`)).body
			.email_templates[0];
		expect(template.content).toEqual(expect.any(String));
		const node = sendNode({ subject: '', content: '', options: { templateId: template.id } });
		const out = outputOf(await crm.run(node), node.name);
		expect(out[0].json.status).toBe('success');
		const [mail] = await outbox();
		expect(mail).toMatchObject({
			subject: template.subject,
			content: template.content,
			template: { id: template.id },
		});
	});

	test('Send: the service refusing one mail fails only that item (continueOnFail)', async () => {
		const node = sendNode({ from: '={{ $json.from }}' }, { onError: 'continueRegularOutput' });
		const out = outputOf(
			await crm.run(node, [{ json: { from: 'stranger@example.com' } }, { json: { from: ADMIN } }]),
			node.name,
		);
		expect(out).toHaveLength(2);
		expect(out[0].json.error).toBe('From address not allowed [NOT_ALLOWED]');
		expect(out[0].json.details).toMatchObject({
			code: 'NOT_ALLOWED',
			details: { api_name: 'from' },
		});
		expect(out[1].json.status).toBe('success');
		expect(await outbox()).toHaveLength(1);

		// without continueOnFail the node fails and names the refusal
		const strict = sendNode({ from: 'stranger@example.com' });
		const error = errorOf(await crm.run(strict), strict.name);
		expect(error?.message).toBe('From address not allowed [NOT_ALLOWED]');
	});

	test('Send: bad input is refused before sending, naming the parameter', async () => {
		const cases: Array<[Record<string, unknown>, string]> = [
			[
				{ to: 'not-an-address' },
				'The parameter "To" holds an invalid email address: "not-an-address"',
			],
			[{ to: '={{ " , " }}' }, 'The parameter "To" needs at least one recipient'],
			[{ recordId: 'abc' }, 'Record ID must be digits, got "abc"'],
			[{ subject: '' }, 'Set both "Subject" and "Content", or a "Template ID" option'],
			[
				{ options: { scheduledTime: 'next tuesday' } },
				'The parameter "Scheduled Time" is not a valid date and time: "next tuesday"',
			],
		];
		for (const [params, message] of cases) {
			const node = sendNode(params);
			expect(errorOf(await crm.run(node), node.name)?.message).toBe(message);
		}
		expect(await calls('send_mail')).toHaveLength(0);
	});
});

describe('CRM Mail under a v2 credential', () => {
	const crm = useCrmFixture({ variant: 'v2' });

	test('Send and Get From Addresses are refused before sending', async () => {
		await crm.clearRequests();
		const send = crm.node('crmMail', {
			resource: 'mail',
			operation: 'send',
			module: 'Leads',
			recordId: '4876876000000611001',
			from: ADMIN,
			to: 'x@example.com',
			subject: 's',
			content: 'c',
		});
		const sendError = errorOf(await crm.run(send), send.name);
		expect(sendError?.message).toBe(
			'Send Mail (SendMail) needs API variant v2.1; the credential uses v2',
		);

		const list = crm.node('crmMail', { resource: 'fromAddress', operation: 'getAll' });
		const listError = errorOf(await crm.run(list), list.name);
		expect(listError?.message).toBe(
			'Get From Addresses (GetEmailAddresses) needs API variant v2.1; the credential uses v2',
		);
		expect((await crm.requests()).filter((r) => r.url.startsWith('/crm/'))).toHaveLength(0);
	});
});
