// Fault injection of the sandbox (test hooks under /__sandbox): forced answers, random 429/5xx
// before or after the call takes effect, dropped connections, short token lifetimes.
import { api, grantToken, startTestSandbox } from '../harness/sandbox';
import type { RunningSandbox } from '../harness/sandbox';

let sb: RunningSandbox;
let token: string;
const admin = (path: string, method: string, body?: unknown) =>
	api(`${sb.url}/__sandbox${path}`, undefined, { method, body });

beforeAll(async () => {
	sb = await startTestSandbox();
	token = (await grantToken(sb.url, { scope: 'CRM.modules.ALL,CRM.settings.ALL' })).access_token;
});
afterAll(async () => await sb.close());
afterEach(async () => {
	await admin('/fault-plan', 'DELETE');
	await admin('/faults', 'DELETE');
});

test('forced faults answer the next N API calls, then the service recovers', async () => {
	await admin('/faults', 'POST', { status: 429, count: 2 });
	const first = await api(`${sb.url}/crm/v2.1/Leads?per_page=1`, token);
	const second = await api(`${sb.url}/crm/v2.1/Leads?per_page=1`, token);
	const third = await api(`${sb.url}/crm/v2.1/Leads?per_page=1`, token);
	expect([first.status, second.status, third.status]).toEqual([429, 429, 200]);
	expect(first.body).toEqual({
		code: 'TOO_MANY_REQUESTS',
		details: {},
		message: expect.stringContaining('Number of API requests'),
		status: 'error',
	});
	expect(first.headers.get('retry-after')).toBeNull();
});

test('a 5xx before the call takes effect writes nothing; after, the record exists', async () => {
	const before = (await api(`${sb.url}/crm/v2.1/Vendors?per_page=200`, token)).body.data.length;
	await admin('/fault-plan', 'PUT', { rate500: 1 });
	const failed = await api(`${sb.url}/crm/v2.1/Vendors`, token, {
		method: 'POST',
		body: { data: [{ Vendor_Name: 'Before Fault' }] },
	});
	expect(failed.status).toBe(500);
	expect(failed.body.code).toBe('INTERNAL_ERROR');
	await admin('/fault-plan', 'PUT', { rate503: 1, after: true });
	const unknown = await api(`${sb.url}/crm/v2.1/Vendors`, token, {
		method: 'POST',
		body: { data: [{ Vendor_Name: 'After Fault' }] },
	});
	expect(unknown.status).toBe(503);
	const stats = (await admin('/fault-plan', 'GET')).body.stats;
	expect(stats).toMatchObject({ calls: 1, injected503: 1 });
	await admin('/fault-plan', 'DELETE');
	const names = (await api(`${sb.url}/crm/v2.1/Vendors?per_page=200`, token)).body.data.map(
		(v: any) => v.Vendor_Name,
	);
	expect(names).toHaveLength(before + 1);
	expect(names).toContain('After Fault');
	expect(names).not.toContain('Before Fault');
});

test('random faults follow the configured share and are reproducible with a seed', async () => {
	const run = async () => {
		await admin('/fault-plan', 'PUT', { rate429: 0.2, rate500: 0.1, seed: 42 });
		const statuses: number[] = [];
		for (let i = 0; i < 100; i++)
			statuses.push((await api(`${sb.url}/crm/v2.1/Leads?per_page=1`, token)).status);
		return statuses;
	};
	const a = await run();
	const b = await run();
	expect(a).toEqual(b);
	const share429 = a.filter((s) => s === 429).length;
	const share500 = a.filter((s) => s === 500).length;
	expect(share429).toBeGreaterThan(8);
	expect(share429).toBeLessThan(35);
	expect(share500).toBeGreaterThan(2);
	expect(share500).toBeLessThan(22);
	expect(a.filter((s) => s === 200).length).toBe(100 - share429 - share500);
});

test('a dropped connection closes the socket mid-response', async () => {
	await admin('/fault-plan', 'PUT', { dropConnectionRate: 1 });
	await expect(
		fetch(`${sb.url}/crm/v2.1/Leads?per_page=1`, {
			headers: { Authorization: `Bearer ${token}` },
		}).then((r) => r.text()),
	).rejects.toThrow();
	await admin('/fault-plan', 'DELETE');
	expect((await api(`${sb.url}/crm/v2.1/Leads?per_page=1`, token)).status).toBe(200);
});

test('delays and short token lifetimes', async () => {
	await admin('/fault-plan', 'PUT', { delayMs: 150 });
	const t0 = Date.now();
	await api(`${sb.url}/crm/v2.1/Leads?per_page=1`, token);
	expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
	await admin('/fault-plan', 'DELETE');

	await admin('/token-lifetime', 'PUT', { seconds: 5 });
	const short = await api(`${sb.url}/__sandbox/tokens`, undefined, {
		method: 'POST',
		body: { scope: 'CRM.modules.ALL' },
	});
	expect(short.body.expires_in).toBe(5);
	expect((await api(`${sb.url}/crm/v2.1/Leads?per_page=1`, short.body.access_token)).status).toBe(
		200,
	);
	await admin('/clock', 'POST', { advance_ms: 6000 });
	const expired = await api(`${sb.url}/crm/v2.1/Leads?per_page=1`, short.body.access_token);
	expect(expired.status).toBe(401);
	expect(expired.body.code).toBe('INVALID_TOKEN');
	await admin('/token-lifetime', 'PUT', { seconds: 3600 });
});

test('a planned delay honours pathIncludes: only the selected calls wait', async () => {
	await admin('/fault-plan', 'PUT', { delayMs: 600, pathIncludes: '/Contacts' });
	const timed = async (path: string) => {
		const t0 = Date.now();
		const res = await api(`${sb.url}/crm/v2.1/${path}?per_page=1`, token);
		return { status: res.status, ms: Date.now() - t0 };
	};
	const other = await timed('Leads');
	const selected = await timed('Contacts');
	expect(other.status).toBe(200);
	expect(selected.status).toBe(200);
	expect(other.ms).toBeLessThan(500);
	expect(selected.ms).toBeGreaterThanOrEqual(590);
	// only the selected call counts as planned
	expect((await admin('/fault-plan', 'GET')).body.stats.calls).toBe(1);
});
