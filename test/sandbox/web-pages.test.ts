// The sandbox's pages over HTTP: local only (Host), forms refused from another site or without the
// session's CSRF token, record create / edit / delete through the forms (checked through the API),
// a page edit notifying a watch channel as an API write does, the service's own error messages,
// and the tester's settings. The pages read and write through the API's operations, so every
// outcome here is checked through the API or the /__sandbox hooks.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

import { useContractFixture } from '../harness/contract.ts';
import { api, startTestSandbox } from '../harness/sandbox.ts';
import { startReceiver } from '../harness/receiver.ts';
import { deliveriesSettled } from '../harness/wait.ts';

const sb = useContractFixture({
	scope: 'CRM.modules.ALL,CRM.settings.ALL,CRM.notifications.ALL',
	sandbox: { deliveryRetryDelaysMs: [0, 50, 100], deliveryTimeoutMs: 2000 },
});
const { call } = sb;

interface Page {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
}

/** One request to the pages with node:http, so that Host, Origin and Sec-Fetch-Site are as given. */
async function page(
	method: string,
	path: string,
	o: { headers?: Record<string, string>; form?: Record<string, string | string[]> } = {},
): Promise<Page> {
	const body = o.form ? formBody(o.form) : undefined;
	const url = new URL(path, sb.url);
	return await new Promise((resolve, reject) => {
		const req = request(
			url,
			{
				method,
				headers: {
					...(body
						? {
								'Content-Type': 'application/x-www-form-urlencoded',
								'Content-Length': String(Buffer.byteLength(body)),
							}
						: {}),
					...o.headers,
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						text: Buffer.concat(chunks).toString('utf8'),
					}),
				);
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

function formBody(form: Record<string, string | string[]>): string {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(form))
		for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
	return params.toString();
}

/** A browser session: its cookie and the CSRF token of the forms it was served. */
interface Session {
	cookie: string;
	csrf: string;
}

async function openSession(): Promise<Session> {
	const home = await page('GET', '/');
	expect(home.status).toBe(200);
	const cookie = String(home.headers['set-cookie']).split(';')[0];
	const settings = await page('GET', '/ui/settings', { headers: { Cookie: cookie } });
	const csrf = /name="_csrf" value="([0-9a-f]+)"/.exec(settings.text)?.[1];
	expect(csrf).toBeDefined();
	return { cookie, csrf: csrf! };
}

/** Posts a form as the pages' own browser tab does (same-origin, the session's token). */
async function post(s: Session, path: string, form: Record<string, string | string[]>) {
	return await page('POST', path, {
		headers: { Cookie: s.cookie, Origin: sb.url, 'Sec-Fetch-Site': 'same-origin' },
		form: { _csrf: s.csrf, ...form },
	});
}

/** The fields a record form sends (each input's `has:` marker with its value). */
function fields(values: Record<string, string | string[]>): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const [key, value] of Object.entries(values)) {
		out[`has:${key}`] = '1';
		out[key] = value;
	}
	return out;
}

const recordOf = async (module: string, id: string) =>
	await call('GET', `/crm/v2.1/${module}/${id}`);

/** A deal of the demo data in no blueprint and in an open stage (its Stage changes freely). */
async function freeDeal(): Promise<{ id: string; Stage: string }> {
	const deals = (
		await call('GET', '/crm/v2.1/Deals', { query: { per_page: '200', fields: 'Stage,Pipeline' } })
	).body.data as Array<{ id: string; Stage: string; Pipeline: string }>;
	const deal = deals.find((d) => d.Pipeline !== 'Enterprise' && !d.Stage.startsWith('Closed'));
	expect(deal).toBeDefined();
	return deal!;
}

async function blueprintDeal(): Promise<{ id: string; Stage: string }> {
	const deals = (
		await call('GET', '/crm/v2.1/Deals', { query: { per_page: '200', fields: 'Stage' } })
	).body.data as Array<{ id: string; Stage: string }>;
	for (const deal of deals) {
		const bp = await call('GET', `/crm/v2.1/Deals/${deal.id}/actions/blueprint`);
		if (bp.status === 200) return deal;
	}
	throw new Error('no demo deal is in a blueprint');
}

describe('who may use the pages', () => {
	it('the root is a page listing the modules, for local Host names only', async () => {
		const port = new URL(sb.url).port;
		for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
			const res = await page('GET', '/', { headers: { Host: host } });
			expect({ host, status: res.status }).toEqual({ host, status: 200 });
			expect(res.headers['content-type']).toMatch(/^text\/html/);
			expect(res.text).toContain('href="/ui/modules/Deals"');
		}
		for (const host of [
			'evil.example',
			`evil.example:${port}`,
			`192.0.2.1:${port}`,
			'localhost.evil.example',
		]) {
			const res = await page('GET', '/ui/modules/Deals', { headers: { Host: host } });
			expect({ host, status: res.status }).toEqual({ host, status: 403 });
			expect(res.text).not.toContain('Deals');
		}
	});

	it('the API answers as before: unknown paths stay INVALID_URL_PATTERN, and pages are not API calls', async () => {
		const res = await api(`${sb.url}/api/Leads`);
		expect(res.status).toBe(404);
		expect(res.body.code).toBe('INVALID_URL_PATTERN');
		await api(`${sb.url}/__sandbox/requests`, undefined, { method: 'DELETE' });
		await page('GET', '/ui/modules/Leads');
		const log = await api(`${sb.url}/__sandbox/requests`);
		expect(log.body.requests.filter((r: { url: string }) => r.url.startsWith('/ui'))).toEqual([]);
	});

	it('a form posted without the session, without its CSRF token, or from another site changes nothing', async () => {
		const s = await openSession();
		const before = await api(`${sb.url}/__sandbox/delivery-retries`);
		const attempts: Array<[string, Parameters<typeof page>[2]]> = [
			['no token', { headers: { Cookie: s.cookie }, form: { policy: 'none' } }],
			[
				'wrong token',
				{ headers: { Cookie: s.cookie }, form: { _csrf: 'f'.repeat(64), policy: 'none' } },
			],
			['no session', { form: { _csrf: s.csrf, policy: 'none' } }],
			[
				'another site (Origin)',
				{
					headers: { Cookie: s.cookie, Origin: 'http://evil.example' },
					form: { _csrf: s.csrf, policy: 'none' },
				},
			],
			[
				'another site (Sec-Fetch-Site)',
				{
					headers: { Cookie: s.cookie, 'Sec-Fetch-Site': 'cross-site' },
					form: { _csrf: s.csrf, policy: 'none' },
				},
			],
		];
		for (const [why, init] of attempts) {
			const res = await page('POST', '/ui/settings/delivery-retries', init);
			expect({ why, status: res.status }).toEqual({ why, status: 403 });
			expect(res.text).toMatch(/Refused/);
		}
		expect((await api(`${sb.url}/__sandbox/delivery-retries`)).body).toEqual(before.body);
		// the same form from the page itself goes through
		const ok = await post(s, '/ui/settings/delivery-retries', { policy: 'none' });
		expect(ok.status).toBe(303);
		expect((await api(`${sb.url}/__sandbox/delivery-retries`)).body.policy).toBe('none');
		await post(s, '/ui/settings/delivery-retries', { policy: before.body.policy });
	});
});

describe('a sandbox with a public origin and a hook key', () => {
	it("serves the public origin's host too, and its settings need the hook key", async () => {
		const other = await startTestSandbox({
			publicOrigin: 'http://crm.test:4010',
			hookKey: 'page-key',
		});
		try {
			const get = async (path: string, headers: Record<string, string>) =>
				await page('GET', new URL(path, other.url).href, { headers });
			expect((await get('/', { Host: 'crm.test:4010' })).status).toBe(200);
			expect((await get('/', { Host: 'crm.test.evil.example' })).status).toBe(403);
			const home = await get('/', {});
			const cookie = String(home.headers['set-cookie']).split(';')[0];
			const settings = await get('/ui/settings', { Cookie: cookie });
			expect(settings.text).toContain('name="hook_key"');
			const csrf = /name="_csrf" value="([0-9a-f]+)"/.exec(settings.text)![1];
			const change = async (key?: string) =>
				await page('POST', new URL('/ui/settings/delivery-retries', other.url).href, {
					headers: { Cookie: cookie },
					form: { _csrf: csrf, policy: 'none', ...(key ? { hook_key: key } : {}) },
				});
			const hooks = { 'X-Sandbox-Hook-Key': 'page-key' };
			const retries = async () =>
				(await api(`${other.url}/__sandbox/delivery-retries`, undefined, { headers: hooks })).body
					.policy;
			const refused = await change('wrong');
			expect(refused.status).toBe(400);
			expect(refused.text).toContain('AUTHENTICATION_FAILURE');
			expect(await retries()).toBe('default');
			expect((await change('page-key')).status).toBe(303);
			expect(await retries()).toBe('none');
		} finally {
			await other.close();
		}
	});
});

describe('records through the forms', () => {
	it('create, edit and delete a lead: the store holds the typed values', async () => {
		const s = await openSession();
		const form = await page('GET', '/ui/modules/Leads/new', { headers: { Cookie: s.cookie } });
		expect(form.status).toBe(200);
		// inputs typed from the fields: a picklist is a select, a date a date input, a lookup a picker
		expect(form.text).toMatch(/<select name="Lead_Status"/);
		expect(form.text).toMatch(/<select name="Owner"/);
		const created = await post(
			s,
			'/ui/modules/Leads',
			fields({
				Last_Name: 'Pagewright',
				First_Name: 'Ada',
				Email: 'ada.pagewright@example.com',
				Lead_Source: 'Web Download',
			}),
		);
		expect(created.status).toBe(303);
		const location = String(created.headers.location);
		const id = /\/ui\/modules\/Leads\/(\d+)\?done=created$/.exec(location)?.[1];
		expect(id).toBeDefined();
		let lead = (await recordOf('Leads', id!)).body.data[0];
		expect(lead).toMatchObject({
			Last_Name: 'Pagewright',
			First_Name: 'Ada',
			Email: 'ada.pagewright@example.com',
			Lead_Source: 'Web Download',
		});

		const shown = await page('GET', location, { headers: { Cookie: s.cookie } });
		expect(shown.text).toContain('value="ada.pagewright@example.com"');
		const edited = await post(
			s,
			`/ui/modules/Leads/${id}`,
			fields({
				Last_Name: 'Pagewright',
				First_Name: '',
				Email: 'ada@example.org',
				Lead_Source: 'Web Download',
			}),
		);
		expect(edited.status).toBe(303);
		lead = (await recordOf('Leads', id!)).body.data[0];
		expect(lead.Email).toBe('ada@example.org');
		expect(lead.First_Name ?? null).toBeNull();

		const deleted = await post(s, `/ui/modules/Leads/${id}/delete`, {});
		expect(deleted.status).toBe(303);
		expect((await recordOf('Leads', id!)).status).toBe(204);
	});

	it('the list searches and pages', async () => {
		const s = await openSession();
		const lead = (
			await call('GET', '/crm/v2.1/Leads', { query: { per_page: '1', fields: 'Last_Name' } })
		).body.data[0];
		const found = await page('GET', `/ui/modules/Leads?q=${encodeURIComponent(lead.Last_Name)}`, {
			headers: { Cookie: s.cookie },
		});
		expect(found.text).toContain(`href="/ui/modules/Leads/${lead.id}"`);
		const first = await page('GET', '/ui/modules/Leads', { headers: { Cookie: s.cookie } });
		const second = await page('GET', '/ui/modules/Leads?page=2', { headers: { Cookie: s.cookie } });
		const ids = (text: string) =>
			[...text.matchAll(/href="\/ui\/modules\/Leads\/(\d+)"/g)].map((m) => m[1]);
		expect(ids(first.text)).toHaveLength(20);
		expect(ids(second.text).length).toBeGreaterThan(0);
		expect(ids(second.text).filter((i) => ids(first.text).includes(i))).toEqual([]);
		expect(first.text).toContain('next →');
	});

	it("a refused write shows the service's own error: RECORD_IN_BLUEPRINT for a stage change outside a transition", async () => {
		const s = await openSession();
		const deal = await blueprintDeal();
		const other = deal.Stage === 'Qualification' ? 'Needs Analysis' : 'Qualification';
		// what the API answers for the same change
		const viaApi = await call('PUT', `/crm/v2.1/Deals/${deal.id}`, {
			body: { data: [{ Stage: other }] },
		});
		const refusal = viaApi.body.data[0];
		expect(refusal.code).toBe('RECORD_IN_BLUEPRINT');
		const res = await post(s, `/ui/modules/Deals/${deal.id}`, fields({ Stage: other }));
		expect(res.status).toBe(400);
		expect(res.text).toContain(refusal.code);
		expect(res.text).toContain(refusal.message);
		expect((await recordOf('Deals', deal.id)).body.data[0].Stage).toBe(deal.Stage);
		// the page shows the record's blueprint state and its transitions
		const shown = await page('GET', `/ui/modules/Deals/${deal.id}`, {
			headers: { Cookie: s.cookie },
		});
		const bp = (await call('GET', `/crm/v2.1/Deals/${deal.id}/actions/blueprint`)).body.blueprint;
		expect(shown.text).toContain(bp.process_info.name);
		for (const t of bp.transitions)
			expect(shown.text).toContain(`name="transition_id" value="${t.id}"`);
	});

	it('a blueprint transition through the page moves the record', async () => {
		const s = await openSession();
		const created = await call('POST', '/crm/v2.1/Deals', {
			body: {
				data: [
					{
						Deal_Name: 'Page transition',
						Stage: 'Qualification',
						Pipeline: 'Enterprise',
						Closing_Date: '2026-12-01',
					},
				],
			},
		});
		const id = created.body.data[0].details.id;
		const bp = (await call('GET', `/crm/v2.1/Deals/${id}/actions/blueprint`)).body.blueprint;
		const qualify = bp.transitions.find(
			(t: { next_field_value: string }) => t.next_field_value === 'Needs Analysis',
		);
		// a mandatory field left empty: the service's validation message
		const refused = await post(s, `/ui/modules/Deals/${id}/transition`, {
			transition_id: qualify.id,
		});
		expect(refused.status).toBe(400);
		const viaApi = await call('PUT', `/crm/v2.1/Deals/${id}/actions/blueprint`, {
			body: { blueprint: [{ transition_id: qualify.id, data: {} }] },
		});
		expect(refused.text).toContain(viaApi.body.details.validation_error[0].message);
		const done = await post(s, `/ui/modules/Deals/${id}/transition`, {
			transition_id: qualify.id,
			...fields({ Probability: '20' }),
		});
		expect(done.status).toBe(303);
		expect((await recordOf('Deals', id)).body.data[0]).toMatchObject({
			Stage: 'Needs Analysis',
			Probability: 20,
		});
	});
});

describe("notifications and the tester's pages", () => {
	it("a deal's stage edited on the page is delivered to the watch channel, and the channels page shows the delivery", async () => {
		const s = await openSession();
		await api(`${sb.url}/__sandbox/deliveries`, undefined, { method: 'DELETE' });
		const receiver = await startReceiver();
		const channelId = '1000000077001';
		const channel = { channel_id: channelId, events: ['Deals.edit'], token: 'page-test' };
		const notifyUrl = `${receiver.url}/hook`;
		const watch = await call('POST', '/crm/v2.1/actions/watch', {
			body: { watch: [{ ...channel, notify_url: notifyUrl }] },
		});
		expect(watch.status).toBe(200);
		const deal = await freeDeal();
		const stage =
			deal.Stage === 'Negotiation/Review' ? 'Proposal/Price Quote' : 'Negotiation/Review';
		const res = await post(s, `/ui/modules/Deals/${deal.id}`, fields({ Stage: stage }));
		expect(res.status).toBe(303);
		const [delivery] = await deliveriesSettled(sb.url, 1, { channelId });
		expect(delivery).toMatchObject({
			outcome: 'delivered',
			module: 'Deals',
			operation: 'update',
			ids: [deal.id],
		});
		const [received] = await receiver.waitFor(1);
		expect(received.body).toMatchObject({
			channel_id: channelId,
			ids: [deal.id],
			operation: 'update',
			token: 'page-test',
		});
		expect(received.body.affected_fields).toEqual([{ [deal.id]: ['Stage'] }]);
		expect((await recordOf('Deals', deal.id)).body.data[0].Stage).toBe(stage);

		const channels = await page('GET', '/ui/channels', { headers: { Cookie: s.cookie } });
		expect(channels.text).toContain(channelId);
		expect(channels.text).toContain(notifyUrl);
		expect(channels.text).toContain(`HTTP ${delivery.attempts[0].status}`);
		expect(channels.text).toContain(`${delivery.attempts[0].duration_ms} ms`);
		await call('DELETE', `/crm/v2.1/actions/watch?channel_ids=${channelId}`);
		await receiver.close();
	});

	it('the last API calls page lists method, path and status', async () => {
		const s = await openSession();
		await call('GET', '/crm/v2.1/Leads', { query: { per_page: '2', fields: 'Last_Name' } });
		await call('GET', '/crm/v2.1/NoSuchModule');
		const calls = await page('GET', '/ui/calls', { headers: { Cookie: s.cookie } });
		const log = (await api(`${sb.url}/__sandbox/requests`)).body.requests as Array<{
			method: string;
			url: string;
			status: number;
		}>;
		for (const c of log.slice(-2)) {
			const row = new RegExp(
				`<td>${c.method}</td><td><code>${c.url.replace(/[?]/g, '\\?').replace(/&/g, '&amp;')}</code></td><td>${c.status}</td>`,
			);
			expect(calls.text).toMatch(row);
		}
	});

	it('the settings switch the API limits and the fault plan', async () => {
		const s = await openSession();
		expect((await post(s, '/ui/settings/limits', { enabled: 'false' })).status).toBe(303);
		expect((await api(`${sb.url}/__sandbox/limits`)).body.limits.enabled).toBe(false);
		expect((await post(s, '/ui/settings/limits', { enabled: 'true' })).status).toBe(303);
		expect((await api(`${sb.url}/__sandbox/limits`)).body.limits.enabled).toBe(true);

		expect(
			(await post(s, '/ui/settings/fault-plan', { rate429: '0.25', seed: '7', after: 'false' }))
				.status,
		).toBe(303);
		expect((await api(`${sb.url}/__sandbox/fault-plan`)).body.plan).toEqual({
			rate429: 0.25,
			seed: 7,
		});
		const bad = await post(s, '/ui/settings/fault-plan', { rate500: '3' });
		expect(bad.status).toBe(400);
		expect(bad.text).toContain('rate500');
		expect((await post(s, '/ui/settings/fault-plan/clear', {})).status).toBe(303);
		expect((await api(`${sb.url}/__sandbox/fault-plan`)).body.plan).toEqual({});
	});
});

describe('the trigger example', () => {
	it('its sticky note names a deal in no blueprint, whose stage the page changes', async () => {
		const example = JSON.parse(
			readFileSync(
				join(__dirname, '..', '..', 'examples', '03-deal-stage-changed-trigger.json'),
				'utf8',
			),
		) as { nodes: Array<{ type: string; parameters: { content?: string } }> };
		const note = example.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')!.parameters
			.content!;
		const name = /open the deal \*\*([^*]+)\*\*/.exec(note)?.[1];
		expect(name).toBeDefined();
		const found = await call('GET', '/crm/v2.1/Deals/search', {
			query: { criteria: `(Deal_Name:equals:${name})` },
		});
		expect(found.body.data).toHaveLength(1);
		const deal = found.body.data[0];
		expect((await call('GET', `/crm/v2.1/Deals/${deal.id}/actions/blueprint`)).body.code).toBe(
			'RECORD_NOT_IN_PROCESS',
		);
		const s = await openSession();
		const shown = await page('GET', `/ui/modules/Deals/${deal.id}`, {
			headers: { Cookie: s.cookie },
		});
		const stages = [...shown.text.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
		const stage = stages.find((v) => v !== deal.Stage && v.startsWith('Proposal'))!;
		expect((await post(s, `/ui/modules/Deals/${deal.id}`, fields({ Stage: stage }))).status).toBe(
			303,
		);
		expect((await recordOf('Deals', deal.id)).body.data[0].Stage).toBe(stage);
	});
});
