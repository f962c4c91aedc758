// Contract tests of the API concurrency and credit limits (docs/protocol.md §7) over HTTP: on by
// default, as on the service (a switch turns them off for benchmarks): calls in flight per client
// application, the sub-limit of the heavy operations, slow calls holding their slot, credits per
// rolling 24 hours with the cost table, X-API-CREDITS-REMAINING, 429 TOO_MANY_REQUESTS.
import http from 'node:http';

import type { RunningSandbox } from '../harness/sandbox.ts';
import { api, startTestSandbox } from '../harness/sandbox.ts';
import { waitFor } from '../harness/wait.ts';

const TOO_MANY = {
	code: 'TOO_MANY_REQUESTS',
	details: {},
	message:
		'Number of API requests for the 24 hour period is exceeded or the concurrency limit of the user for the app is exceeded',
	status: 'error',
};

const SCOPE = 'CRM.modules.ALL,CRM.coql.READ,CRM.settings.ALL';

async function mint(base: string, clientId: string): Promise<string> {
	const res = await api(`${base}/__sandbox/tokens`, undefined, {
		method: 'POST',
		body: { scope: SCOPE, client_id: clientId },
	});
	expect(res.status).toBe(201);
	return res.body.access_token;
}

async function limits(base: string): Promise<any> {
	return (await api(`${base}/__sandbox/limits`)).body.limits;
}

/** Waits (polling the limits hook) until the client has `count` calls in flight. */
async function inFlight(
	base: string,
	clientId: string,
	count: number,
	key = 'in_flight',
): Promise<void> {
	await waitFor(async () => ((await limits(base))[key][clientId] ?? 0) === count, {
		what: `${count} ${key} for ${clientId}`,
	});
}

interface Held {
	/** sends the rest of the body; resolves with the final status */
	finish(): Promise<number>;
}

/** A call held in flight: headers sent, body announced but only partly sent. */
function hold(target: string, token: string, body: string): Held {
	const payload = Buffer.from(body);
	const req = http.request(target, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${token}`,
			'Content-Type': 'application/json',
			'Content-Length': String(payload.length),
		},
	});
	const status = new Promise<number>((resolve, reject) => {
		req.on('response', (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode!));
		});
		req.on('error', reject);
	});
	req.write(payload.subarray(0, 1));
	req.flushHeaders();
	return {
		async finish() {
			req.end(payload.subarray(1));
			return await status;
		},
	};
}

describe('limits on by default', () => {
	let sb: RunningSandbox;

	beforeAll(async () => {
		sb = await startTestSandbox({ demo: false });
	});

	afterAll(async () => {
		await sb.close();
	});

	it('the Enterprise edition: 20 calls in flight per client, the 21st answers 429; credits unlimited', async () => {
		expect(await limits(sb.url)).toMatchObject({
			enabled: true,
			edition: 'Enterprise',
			concurrency_limit: 20,
			subConcurrency: 10,
		});
		expect((await limits(sb.url)).credits).toBeUndefined();
		const token = await mint(sb.url, 'default-app');
		const held = Array.from({ length: 20 }, (_, i) =>
			hold(`${sb.url}/crm/v2.1/Leads`, token, JSON.stringify({ data: [{ Last_Name: `d${i}` }] })),
		);
		await inFlight(sb.url, 'default-app', 20);
		const refused = await api(`${sb.url}/crm/v2.1/Leads`, token);
		expect(refused.status).toBe(429);
		expect(refused.body).toEqual(TOO_MANY);
		expect(refused.headers.get('x-api-credits-remaining')).toBeNull();
		expect(await Promise.all(held.map((h) => h.finish()))).toEqual(Array(20).fill(201));
		await inFlight(sb.url, 'default-app', 0);
		expect((await api(`${sb.url}/crm/v2.1/Leads`, token)).status).toBe(200);
	});

	it('a delayed call (fault plan delayMs) holds its slot while it waits', async () => {
		const token = await mint(sb.url, 'slow-app');
		const plan = await api(`${sb.url}/__sandbox/fault-plan`, undefined, {
			method: 'PUT',
			body: { delayMs: 1500, pathIncludes: '/Accounts', seed: 1 },
		});
		expect(plan.status).toBe(200);
		try {
			const slow = Array.from(
				{ length: 20 },
				async () => await api(`${sb.url}/crm/v2.1/Accounts`, token),
			);
			await inFlight(sb.url, 'slow-app', 20);
			// the delayed calls are in flight: an ordinary call of the same client is refused
			expect((await api(`${sb.url}/crm/v2.1/Leads`, token)).status).toBe(429);
			expect((await Promise.all(slow)).map((r) => r.status)).toEqual(Array(20).fill(204));
		} finally {
			await api(`${sb.url}/__sandbox/fault-plan`, undefined, { method: 'DELETE' });
		}
		await inFlight(sb.url, 'slow-app', 0);
	});
});

describe("limits off (the benchmarks' switch)", () => {
	let sb: RunningSandbox;

	beforeAll(async () => {
		sb = await startTestSandbox({ demo: false, apiLimits: { enabled: false } });
	});

	afterAll(async () => {
		await sb.close();
	});

	it('many parallel calls of one client all succeed, without a credits header', async () => {
		expect((await limits(sb.url)).enabled).toBe(false);
		const token = await mint(sb.url, 'busy');
		const held = Array.from({ length: 30 }, (_, i) =>
			hold(`${sb.url}/crm/v2.1/Leads`, token, JSON.stringify({ data: [{ Last_Name: `p${i}` }] })),
		);
		const res = await api(`${sb.url}/crm/v2.1/Leads`, token);
		expect(res.status).toBe(204);
		expect(res.headers.get('x-api-credits-remaining')).toBeNull();
		expect(await Promise.all(held.map((h) => h.finish()))).toEqual(Array(30).fill(201));
	});
});

describe('concurrency (limits on)', () => {
	let sb: RunningSandbox;

	beforeAll(async () => {
		sb = await startTestSandbox({
			demo: false,
			apiLimits: { enabled: true, edition: 'Free', subConcurrency: 10 },
		});
	});

	afterAll(async () => {
		await sb.close();
	});

	it('the edition limit (Free: 5) in flight per client; the next call answers 429 without Retry-After', async () => {
		expect((await limits(sb.url)).concurrency_limit).toBe(5);
		const token = await mint(sb.url, 'app-a');
		const other = await mint(sb.url, 'app-b');
		const held = Array.from({ length: 5 }, (_, i) =>
			hold(`${sb.url}/crm/v2.1/Leads`, token, JSON.stringify({ data: [{ Last_Name: `c${i}` }] })),
		);
		await inFlight(sb.url, 'app-a', 5);
		const refused = await api(`${sb.url}/crm/v2.1/Leads`, token);
		expect(refused.status).toBe(429);
		expect(refused.body).toEqual(TOO_MANY);
		expect(refused.headers.get('retry-after')).toBeNull();
		// another client application has its own allowance; OAuth and test hooks are not counted
		expect((await api(`${sb.url}/crm/v2.1/Leads`, other)).status).toBe(204);
		expect((await api(`${sb.url}/__sandbox/health`)).status).toBe(200);
		expect(await Promise.all(held.map((h) => h.finish()))).toEqual([201, 201, 201, 201, 201]);
		await inFlight(sb.url, 'app-a', 0);
		expect((await api(`${sb.url}/crm/v2.1/Leads`, token)).status).toBe(200);
	});
});

describe('sub-concurrency of heavy operations (limits on)', () => {
	let sb: RunningSandbox;

	beforeAll(async () => {
		sb = await startTestSandbox({
			demo: false,
			apiLimits: { enabled: true, edition: 'Enterprise', subConcurrency: 10 },
		});
	});

	afterAll(async () => {
		await sb.close();
	});

	it('at most 10 queries in flight per client; ordinary calls still pass', async () => {
		const token = await mint(sb.url, 'heavy');
		const query = JSON.stringify({
			select_query: 'select Last_Name from Leads where Last_Name is not null',
		});
		const held = Array.from({ length: 10 }, () => hold(`${sb.url}/crm/v2.1/coql`, token, query));
		await inFlight(sb.url, 'heavy', 10, 'heavy_in_flight');
		const refused = await api(`${sb.url}/crm/v2.1/coql`, token, {
			method: 'POST',
			body: JSON.parse(query),
		});
		expect(refused.status).toBe(429);
		expect(refused.body).toEqual(TOO_MANY);
		const search = await api(`${sb.url}/crm/v2.1/Leads/search`, token, { query: { word: 'x' } });
		expect(search.status).toBe(429);
		// not resource-intensive: under the general limit of 20
		expect((await api(`${sb.url}/crm/v2.1/Leads`, token)).status).toBe(204);
		expect(
			(
				await api(`${sb.url}/crm/v2.1/Leads`, token, {
					method: 'POST',
					body: { data: [{ Last_Name: 'small' }] },
				})
			).status,
		).toBe(201);
		expect(await Promise.all(held.map((h) => h.finish()))).toEqual(Array(10).fill(200));
		await inFlight(sb.url, 'heavy', 0, 'heavy_in_flight');
		expect(
			(await api(`${sb.url}/crm/v2.1/coql`, token, { method: 'POST', body: JSON.parse(query) }))
				.status,
		).toBe(200);
	});

	it('a create of more than 10 records is heavy, one of 10 is not', async () => {
		const token = await mint(sb.url, 'writer');
		const query = JSON.stringify({
			select_query: 'select Last_Name from Leads where Last_Name is not null',
		});
		const held = Array.from({ length: 10 }, () => hold(`${sb.url}/crm/v2.1/coql`, token, query));
		await inFlight(sb.url, 'writer', 10, 'heavy_in_flight');
		const records = (n: number) => ({
			data: Array.from({ length: n }, (_, i) => ({ Last_Name: `bulk${n}-${i}` })),
		});
		const eleven = await api(`${sb.url}/crm/v2.1/Leads`, token, {
			method: 'POST',
			body: records(11),
		});
		expect(eleven.status).toBe(429);
		expect(eleven.body).toEqual(TOO_MANY);
		expect(
			(await api(`${sb.url}/crm/v2.1/Leads`, token, { method: 'POST', body: records(10) })).status,
		).toBe(201);
		expect(await Promise.all(held.map((h) => h.finish()))).toEqual(Array(10).fill(200));
	});
});

describe('credits per rolling 24 hours (limits on)', () => {
	let sb: RunningSandbox;

	beforeAll(async () => {
		sb = await startTestSandbox({
			demo: false,
			apiLimits: { enabled: true, edition: 'Enterprise', subConcurrency: 10, credits: 20 },
		});
	});

	afterAll(async () => {
		await sb.close();
	});

	it('calls spend credits by the cost table; the header appears at half; then 429 until the window moves', async () => {
		const token = await mint(sb.url, 'spender'); // lives 1 hour of the sandbox clock
		const remaining = (res: { headers: Headers }) => res.headers.get('x-api-credits-remaining');
		const get = async () => await api(`${sb.url}/crm/v2.1/Leads`, token);

		for (let i = 0; i < 4; i++) expect(remaining(await get())).toBeNull(); // used 4
		// 25 records cost 3 credits (1 per 10, rounded up): used 7
		const created = await api(`${sb.url}/crm/v2.1/Leads`, token, {
			method: 'POST',
			body: {
				data: Array.from({ length: 25 }, (_, i) => ({ Last_Name: `cr${i}`, Company: 'Acme' })),
			},
		});
		expect(created.status).toBe(201);
		expect(remaining(created)).toBeNull();
		expect((await limits(sb.url)).credits_used).toBe(7);
		expect(remaining(await get())).toBeNull(); // used 8
		expect(remaining(await get())).toBeNull(); // used 9
		expect(remaining(await get())).toBe('10'); // used 10: half the allowance
		// ConvertLead costs 5: used 15
		const leadId = created.body.data[0].details.id;
		const converted = await api(`${sb.url}/crm/v2.1/Leads/${leadId}/actions/convert`, token, {
			method: 'POST',
			body: { data: [{}] },
		});
		expect(remaining(converted)).toBe('5');
		expect((await limits(sb.url)).credits_used).toBe(15);
		for (let left = 4; left >= 0; left--) expect(remaining(await get())).toBe(String(left));

		const refused = await get();
		expect(refused.status).toBe(429);
		expect(refused.body).toEqual(TOO_MANY);
		expect(refused.headers.get('retry-after')).toBeNull();
		expect(remaining(refused)).toBe('0');
		// OAuth and the test hooks cost nothing and still answer
		expect((await api(`${sb.url}/__sandbox/health`)).status).toBe(200);

		// the window rolls on: the spent credits leave it
		await api(`${sb.url}/__sandbox/clock`, undefined, {
			method: 'POST',
			body: { advance_ms: 24 * 60 * 60 * 1000 + 1000 },
		});
		const fresh = await api(`${sb.url}/crm/v2.1/Leads`, await mint(sb.url, 'spender'));
		expect(fresh.status).toBe(200);
		expect(remaining(fresh)).toBeNull();
		expect((await limits(sb.url)).credits_used).toBe(1);
	});
});
