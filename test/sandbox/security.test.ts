// Contract tests of the sandbox's safety over HTTP: OAuth input checks and issuance limits (§2.1),
// no body read before authentication and size checks, 413 ending the connection cleanly, test
// hooks out of reach of the sandbox's own deliveries and behind a key beyond loopback, COQL bounds
// (§3.13), cleaned file names and valid Content-Disposition (§3.3, §3.4), a bounded request log.
import http from 'node:http';
import { hostname } from 'node:os';

import type { RunningSandbox } from '../harness/sandbox.ts';
import { api, grantToken, startTestSandbox } from '../harness/sandbox.ts';

let sb: RunningSandbox;
let url: string;
let token: string;

const SCOPE =
	'CRM.modules.ALL,CRM.settings.ALL,CRM.coql.READ,CRM.files.ALL,CRM.bulk.ALL,CRM.notifications.ALL';
const REDIRECT = 'http://localhost:5678/callback';

beforeAll(async () => {
	sb = await startTestSandbox({ demo: false });
	url = sb.url;
	token = (await grantToken(url, { scope: SCOPE })).access_token;
});

afterAll(async () => {
	await sb.close();
});

/** GET /oauth/v2/auth without following the redirect; answers status, Location and the body text. */
async function authorize(base: string, params: Record<string, string>) {
	const target = new URL('/oauth/v2/auth', base);
	target.search = new URLSearchParams(params).toString();
	const res = await fetch(target, { redirect: 'manual' });
	return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

async function codeFor(base: string, redirectUri = REDIRECT): Promise<string> {
	const res = await authorize(base, {
		response_type: 'code',
		client_id: 'c1',
		redirect_uri: redirectUri,
		scope: 'CRM.modules.ALL',
		access_type: 'offline',
	});
	expect(res.status).toBe(302);
	return new URL(res.location!).searchParams.get('code')!;
}

async function postToken(base: string, fields: Record<string, string>) {
	const res = await fetch(new URL('/oauth/v2/token', base), {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields).toString(),
	});
	return { status: res.status, body: (await res.json()) as any };
}

const exchange = async (
	base: string,
	code: string,
	extra: Record<string, string> = { redirect_uri: REDIRECT },
) =>
	await postToken(base, {
		grant_type: 'authorization_code',
		client_id: 'c1',
		client_secret: 's1',
		code,
		...extra,
	});

const refresh = async (base: string, refreshToken: string) =>
	await postToken(base, {
		grant_type: 'refresh_token',
		refresh_token: refreshToken,
		client_id: 'c1',
		client_secret: 's1',
	});

const advance = async (base: string, ms: number) => {
	expect(
		(await api(`${base}/__sandbox/clock`, undefined, { method: 'POST', body: { advance_ms: ms } }))
			.status,
	).toBe(200);
};

const leadsStatus = async (base: string, accessToken: string) =>
	(await api(`${base}/crm/v2.1/Leads`, accessToken, { query: { per_page: 1 } })).status;

describe('OAuth input checks', () => {
	it('the token exchange requires the redirect_uri sent at authorization', async () => {
		const code = await codeFor(url);
		const missing = await exchange(url, code, {});
		expect(missing.status).toBe(400);
		expect(missing.body).toEqual({ error: 'invalid_redirect_uri' });
		const other = await exchange(url, code, { redirect_uri: `${REDIRECT}/other` });
		expect(other.status).toBe(400);
		expect(other.body).toEqual({ error: 'invalid_redirect_uri' });
		// the refused attempts did not consume the code
		const ok = await exchange(url, code);
		expect(ok.status).toBe(200);
		expect(typeof ok.body.access_token).toBe('string');
	});

	it.each([
		['not a url'],
		['/relative/callback'],
		['http//missing-colon'],
		['javascript:alert(1)'],
		['data:text/html,<b>x</b>'],
		['ftp://files.example/cb'],
		['file:///etc/passwd'],
	])('an unusable redirect_uri %j answers 400 invalid_request', async (redirectUri) => {
		const res = await authorize(url, {
			response_type: 'code',
			client_id: 'c1',
			redirect_uri: redirectUri,
			scope: 'CRM.modules.ALL',
		});
		expect(res.status).toBe(400);
		expect(JSON.parse(res.text)).toEqual({ error: 'invalid_request' });
		expect(res.location).toBeNull();
	});

	it('the HTML body of the redirect escapes what it echoes', async () => {
		const res = await authorize(url, {
			response_type: 'code',
			client_id: 'c1',
			redirect_uri: `${REDIRECT}?q=a&lt;b&x='y'`,
			scope: 'CRM.modules.ALL',
			state: `"><script>alert(1)</script>&amp;`,
		});
		expect(res.status).toBe(302);
		expect(res.text).not.toMatch(/<script/i);
		// every `&` in the body starts an entity; decoding the href gives back the Location exactly
		expect(res.text).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#39;)/);
		const href = /href="([^"]*)"/.exec(res.text)![1];
		const decoded = href.replace(
			/&(amp|lt|gt|quot|#39);/g,
			(_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
		);
		expect(decoded).toBe(res.location);
		expect(new URL(res.location!).searchParams.get('state')).toBe(
			`"><script>alert(1)</script>&amp;`,
		);
	});
});

describe('OAuth issuance limits (§2.1, oauthLimits on)', () => {
	let lim: RunningSandbox;

	beforeEach(async () => {
		lim = await startTestSandbox({ demo: false, oauthLimits: true });
	});

	afterEach(async () => {
		await lim.close();
	});

	it('at most 5 refresh tokens per minute; the sixth code grant answers 400 access_denied', async () => {
		for (let i = 0; i < 5; i++)
			expect((await exchange(lim.url, await codeFor(lim.url))).status).toBe(200);
		const sixth = await exchange(lim.url, await codeFor(lim.url));
		expect(sixth.status).toBe(400);
		expect(sixth.body).toEqual({ error: 'access_denied' });
		await advance(lim.url, 61_000);
		expect((await exchange(lim.url, await codeFor(lim.url))).status).toBe(200);
	});

	it('at most 10 access tokens per refresh token per 10 minutes; further refreshes are refused for the window', async () => {
		const first = await exchange(lim.url, await codeFor(lim.url)); // access token 1
		expect(first.status).toBe(200);
		for (let i = 2; i <= 10; i++)
			expect((await refresh(lim.url, first.body.refresh_token)).status).toBe(200);
		const eleventh = await refresh(lim.url, first.body.refresh_token);
		expect(eleventh.status).toBe(400);
		expect(eleventh.body).toEqual({ error: 'access_denied' });
		await advance(lim.url, 10 * 60_000 + 1000);
		expect((await refresh(lim.url, first.body.refresh_token)).status).toBe(200);
	});

	it('the 21st refresh token of a user deletes the oldest, with its access tokens', async () => {
		const grants: any[] = [];
		for (let i = 0; i < 21; i++) {
			if (i > 0 && i % 5 === 0) await advance(lim.url, 61_000);
			const res = await exchange(lim.url, await codeFor(lim.url));
			expect(res.status).toBe(200);
			grants.push(res.body);
		}
		expect(await refresh(lim.url, grants[0].refresh_token)).toEqual({
			status: 400,
			body: { error: 'invalid_grant' },
		});
		expect(await leadsStatus(lim.url, grants[0].access_token)).toBe(401);
		expect((await refresh(lim.url, grants[1].refresh_token)).status).toBe(200);
		expect(await leadsStatus(lim.url, grants[20].access_token)).toBe(204);
	});

	it('the 31st active access token of a refresh token deletes the oldest', async () => {
		const first = await exchange(lim.url, await codeFor(lim.url));
		const tokens = [first.body.access_token as string];
		while (tokens.length < 31) {
			if (tokens.length % 10 === 0) await advance(lim.url, 10 * 60_000 + 1000); // next issuance window, tokens still live
			const res = await refresh(lim.url, first.body.refresh_token);
			expect(res.status).toBe(200);
			tokens.push(res.body.access_token);
		}
		expect(await leadsStatus(lim.url, tokens[0])).toBe(401);
		expect(await leadsStatus(lim.url, tokens[1])).toBe(204);
		expect(await leadsStatus(lim.url, tokens[30])).toBe(204);
	});

	it('without the switch (default) the limits do not apply', async () => {
		for (let i = 0; i < 7; i++) expect((await exchange(url, await codeFor(url))).status).toBe(200);
	});
});

/** A raw POST announcing `length` bytes, of which only `first` are sent; resolves with the response. */
function partialPost(
	target: string,
	headers: Record<string, string>,
	length: number,
	first: number,
) {
	return new Promise<{
		status: number;
		headers: http.IncomingHttpHeaders;
		body: any;
		req: http.ClientRequest;
	}>((resolve, reject) => {
		const req = http.request(target, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'Content-Length': String(length), ...headers },
		});
		req.on('response', (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () =>
				resolve({
					status: res.statusCode!,
					headers: res.headers,
					body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
					req,
				}),
			);
		});
		// the sandbox ends the connection after answering; what the client then sees is irrelevant
		req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
		req.write(Buffer.alloc(first, 0x20));
	});
}

describe('authentication and size checks come before the body is read', () => {
	it('an unauthenticated POST announcing 50 MB gets 401 before it sent the body, and nothing is buffered', async () => {
		const before = sb.sandbox.bodyBytesRead;
		const res = await partialPost(`${url}/crm/v2.1/Leads`, {}, 50 * 1024 * 1024, 64 * 1024);
		// the answer came while 49.9 MB were still unsent
		expect(res.status).toBe(401);
		expect(res.body).toMatchObject({ code: 'INVALID_TOKEN' });
		expect(res.headers.connection).toBe('close');
		expect(sb.sandbox.bodyBytesRead - before).toBe(0);
		res.req.destroy();
	});

	it('a client that sends a refused 10 MB upload in full still reads its 401, and its next call succeeds', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const body = Buffer.alloc(10 * 1024 * 1024, 0x61);
			const refused = await agentRequest(agent, `${url}/crm/v2.1/Leads`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body,
			});
			expect(refused.status).toBe(401);
			expect(JSON.parse(refused.text)).toMatchObject({ code: 'INVALID_TOKEN' });
			const next = await agentRequest(agent, `${url}/crm/v2.1/Leads?per_page=1`, {
				method: 'GET',
				headers: { Authorization: `Bearer ${token}` },
			});
			expect([200, 204]).toContain(next.status);
		} finally {
			agent.destroy();
		}
		const viaFetch = await fetch(`${url}/crm/v2.1/Leads`, {
			method: 'POST',
			body: new Uint8Array(10 * 1024 * 1024),
		});
		expect(viaFetch.status).toBe(401);
		expect(await viaFetch.json()).toMatchObject({ code: 'INVALID_TOKEN' });
	});

	it('a body announced over the limit gets 413 before it is read', async () => {
		const small = await startTestSandbox({ demo: false, maxBodyBytes: 1024 * 1024 });
		try {
			const tok = (await grantToken(small.url, { scope: 'CRM.modules.ALL' })).access_token;
			const before = small.sandbox.bodyBytesRead;
			const res = await partialPost(
				`${small.url}/crm/v2.1/Leads`,
				{ Authorization: `Bearer ${tok}` },
				40 * 1024 * 1024,
				16 * 1024,
			);
			expect(res.status).toBe(413);
			expect(res.body).toMatchObject({ code: 'FILE_SIZE_MORE_THAN_ALLOWED_SIZE', status: 'error' });
			expect(res.headers.connection).toBe('close');
			expect(small.sandbox.bodyBytesRead - before).toBe(0);
			res.req.destroy();
		} finally {
			await small.close();
		}
	});
});

/** One request through an agent; answers status, headers and body text, or rejects with the socket error. */
function agentRequest(
	agent: http.Agent,
	target: string,
	init: { method: string; headers?: Record<string, string>; body?: Buffer; chunked?: boolean },
) {
	return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
		(resolve, reject) => {
			const headers = { ...init.headers };
			if (init.body && !init.chunked) headers['Content-Length'] = String(init.body.length);
			const req = http.request(target, { method: init.method, agent, headers });
			req.on('response', (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					resolve({
						status: res.statusCode!,
						headers: res.headers,
						text: Buffer.concat(chunks).toString(),
					}),
				);
				res.on('error', reject);
			});
			req.on('error', reject);
			if (init.body) {
				// in pieces, as a streaming client sends them
				for (let i = 0; i < init.body.length; i += 4096) req.write(init.body.subarray(i, i + 4096));
			}
			req.end();
		},
	);
}

describe('413 ends the connection cleanly', () => {
	let small: RunningSandbox;
	let tok: string;

	beforeAll(async () => {
		small = await startTestSandbox({ demo: false, maxBodyBytes: 1024 });
		tok = (await grantToken(small.url, { scope: 'CRM.modules.ALL' })).access_token;
	});

	afterAll(async () => {
		await small.close();
	});

	it.each([
		['a sized body', false],
		['a chunked body', true],
	])(
		'%s over the limit: 413 with Connection: close, then the pooled client succeeds',
		async (_label, chunked) => {
			const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
			try {
				const auth = { Authorization: `Bearer ${tok}` };
				const warm = await agentRequest(agent, `${small.url}/crm/v2.1/Leads?per_page=1`, {
					method: 'GET',
					headers: auth,
				});
				expect([200, 204]).toContain(warm.status);
				const body = Buffer.from(JSON.stringify({ data: [{ Last_Name: 'x'.repeat(64 * 1024) }] }));
				const big = await agentRequest(agent, `${small.url}/crm/v2.1/Leads`, {
					method: 'POST',
					headers: { ...auth, 'Content-Type': 'application/json' },
					body,
					chunked,
				});
				expect(big.status).toBe(413);
				expect(JSON.parse(big.text)).toMatchObject({ code: 'FILE_SIZE_MORE_THAN_ALLOWED_SIZE' });
				expect(big.headers.connection).toBe('close');
				for (let i = 0; i < 3; i++) {
					const next = await agentRequest(agent, `${small.url}/crm/v2.1/Leads`, {
						method: 'POST',
						headers: { ...auth, 'Content-Type': 'application/json' },
						body: Buffer.from(JSON.stringify({ data: [{ Last_Name: `after-${i}` }] })),
					});
					expect(next.status).toBe(201);
				}
			} finally {
				agent.destroy();
			}
		},
	);
});

describe('test hooks', () => {
	it.each([
		['no key set: a random one', {}],
		['a configured key', { hookKey: 'k-3f9a1c' }],
	])('beyond loopback they need the hook key (%s)', async (_label, options) => {
		const wide = await startTestSandbox({ demo: false, host: '0.0.0.0', ...options });
		try {
			const key = wide.sandbox.config.hookKey!;
			expect(key).toMatch(/\S{6,}/);
			const health = `http://127.0.0.1:${wide.port}/__sandbox/health`;
			const attempts: Array<Record<string, string>> = [
				{},
				{ 'X-Sandbox-Hook-Key': 'wrong' },
				{ 'X-Sandbox-Hook-Key': `${key}x` },
			];
			for (const headers of attempts) {
				const res = await api(health, undefined, { headers });
				expect(res.status).toBe(401);
				expect(res.body).toMatchObject({ code: 'AUTHENTICATION_FAILURE', status: 'error' });
			}
			const clock = await api(`http://127.0.0.1:${wide.port}/__sandbox/clock`, undefined, {
				method: 'POST',
				body: { advance_ms: 5000 },
			});
			expect(clock.status).toBe(401);
			expect(wide.sandbox.clockOffsetMs).toBe(0);
			expect(
				(await api(health, undefined, { headers: { 'X-Sandbox-Hook-Key': key } })).status,
			).toBe(200);
			// the API itself is unaffected
			const tok = (await grantToken(`http://127.0.0.1:${wide.port}`, { scope: 'CRM.modules.ALL' }))
				.access_token;
			expect((await api(`http://127.0.0.1:${wide.port}/crm/v2.1/Leads`, tok)).status).toBe(204);
		} finally {
			await wide.close();
		}
	});

	it('on loopback they need no key', async () => {
		expect(sb.sandbox.config.hookKey).toBeUndefined();
		expect((await api(`${url}/__sandbox/health`)).status).toBe(200);
	});

	const selfUrls = () => {
		const port = sb.port;
		return [
			`${url}/__sandbox/clock`,
			`http://localhost:${port}/__sandbox/faults`,
			`http://LOCALHOST.:${port}/__sandbox/faults`,
			`http://api.localhost:${port}/__sandbox/tokens`,
			`http://[::1]:${port}/__sandbox/clock`,
			`http://[::ffff:127.0.0.1]:${port}/__sandbox/clock`,
			`http://127.0.0.2:${port}/__sandbox/clock`,
			`http://127.1:${port}/__sandbox/clock`,
			`http://2130706433:${port}/__sandbox/clock`,
			`http://0.0.0.0:${port}/__sandbox/clock`,
			`http://${hostname()}:${port}/__sandbox/clock`,
		];
	};

	it('a watch notify_url pointing at the sandbox itself is refused at subscribe time', async () => {
		const urls = selfUrls();
		const items = urls.map((notifyUrl, i) => ({
			channel_id: String(1000000090001 + i),
			events: ['Leads.create'],
			notify_url: notifyUrl,
		}));
		const res = await api(`${url}/crm/v2.1/actions/watch`, token, {
			method: 'POST',
			body: { watch: items },
		});
		expect(res.status).toBe(400);
		expect(res.body.watch).toHaveLength(urls.length);
		for (const item of res.body.watch) {
			expect(item).toMatchObject({
				code: 'INVALID_DATA',
				status: 'error',
				details: { api_name: 'notify_url' },
			});
		}
		expect((await api(`${url}/crm/v2.1/actions/watch`, token)).status).toBe(204);
		// another port on the same host is an ordinary receiver
		const other = await api(`${url}/crm/v2.1/actions/watch`, token, {
			method: 'POST',
			body: {
				watch: [
					{
						channel_id: '1000000090100',
						events: ['Leads.create'],
						notify_url: `http://127.0.0.1:${sb.port === 9 ? 10 : 9}/hook`,
					},
				],
			},
		});
		expect(other.status).toBe(200);
		expect(
			(
				await api(`${url}/crm/v2.1/actions/watch`, token, {
					method: 'DELETE',
					query: { channel_ids: '1000000090100' },
				})
			).status,
		).toBe(200);
	});

	it('a bulk-job callback URL pointing at the sandbox itself is refused at create time', async () => {
		for (const callbackUrl of selfUrls()) {
			const res = await api(`${url}/crm/bulk/v2.1/read`, token, {
				method: 'POST',
				body: {
					query: { module: { api_name: 'Leads' } },
					callback: { url: callbackUrl, method: 'post' },
				},
			});
			expect(res.status).toBe(400);
			expect(res.body).toMatchObject({ code: 'INVALID_CALLBACK_URL', status: 'error' });
		}
	});
});

describe('COQL bounds', () => {
	const coql = async (query: string, tok = token) =>
		await api(`${url}/crm/v2.1/coql`, tok, { method: 'POST', body: { select_query: query } });

	it('deeply nested brackets answer SYNTAX_ERROR, never 500', async () => {
		for (const depth of [65, 1000, 100_000]) {
			const res = await coql(
				`select Last_Name from Leads where ${'('.repeat(depth)}Last_Name = 'x'${')'.repeat(depth)}`,
			);
			expect(res.status).toBe(400);
			expect(res.body).toMatchObject({
				code: 'SYNTAX_ERROR',
				status: 'error',
				details: { clause: 'where' },
			});
		}
		// moderate redundant nesting is still accepted
		const ok = await coql(
			`select Last_Name from Leads where ${'('.repeat(30)}Last_Name = 'nobody'${')'.repeat(30)}`,
		);
		expect(ok.status).toBe(204);
	});

	it('like runs in linear time: ten % on a long value answer at once, with the right rows', async () => {
		const value = 'a'.repeat(80); // the longest Last_Name the module accepts
		const created = await api(`${url}/crm/v2.1/Leads`, token, {
			method: 'POST',
			body: { data: [{ Last_Name: value }] },
		});
		expect(created.status).toBe(201);
		const started = Date.now();
		// a backtracking regex would try ~10^11 splits here before failing
		const miss = await coql(
			`select Last_Name from Leads where Last_Name like '${'%a'.repeat(9)}%b'`,
		);
		const hit = await coql(`select Last_Name from Leads where Last_Name like '${'%a'.repeat(9)}%'`);
		// sanity bound only: a backtracking matcher takes hours, a linear one microseconds
		expect(Date.now() - started).toBeLessThan(1000);
		expect(miss.status).toBe(204);
		expect(hit.status).toBe(200);
		expect(hit.body.data.map((r: any) => r.Last_Name)).toContain(value);
	});

	it('like keeps its meaning: starts with, ends with, contains, pieces in order', async () => {
		const created = await api(`${url}/crm/v2.1/Leads`, token, {
			method: 'POST',
			body: { data: [{ Last_Name: 'Zx-Alpha.Beta(1)' }] },
		});
		expect(created.status).toBe(201);
		const names = async (pattern: string) => {
			const res = await coql(`select Last_Name from Leads where Last_Name like '${pattern}'`);
			return res.status === 204 ? [] : res.body.data.map((r: any) => r.Last_Name);
		};
		expect(await names('zx-%')).toEqual(['Zx-Alpha.Beta(1)']);
		expect(await names('%(1)')).toEqual(['Zx-Alpha.Beta(1)']);
		expect(await names('%alpha.b%')).toEqual(['Zx-Alpha.Beta(1)']);
		expect(await names('zx%alpha%beta%')).toEqual(['Zx-Alpha.Beta(1)']);
		expect(await names('zx%beta%alpha%')).toEqual([]);
		expect(await names('zx-alpha.beta(1)')).toEqual(['Zx-Alpha.Beta(1)']);
		expect(await names('zx-alpha')).toEqual([]);
		expect(await names('%.*%')).toEqual([]);
	});

	it("a join reads another module only with that module's read scope", async () => {
		const mint = async (scope: string) =>
			(await api(`${url}/__sandbox/tokens`, undefined, { method: 'POST', body: { scope } })).body
				.access_token as string;
		const contactsOnly = await mint('CRM.coql.READ,CRM.modules.contacts.READ');
		const both = await mint('CRM.coql.READ,CRM.modules.contacts.READ,CRM.modules.accounts.READ');
		const queries = [
			`select Last_Name, Account_Name.Account_Name from Contacts where Last_Name is not null`,
			`select Last_Name from Contacts where Account_Name.Account_Name = 'Acme'`,
			`select Last_Name from Contacts where Last_Name is not null order by Account_Name.Account_Name`,
		];
		for (const query of queries) {
			const refused = await coql(query, contactsOnly);
			expect(refused.status).toBe(401);
			expect(refused.body).toMatchObject({ code: 'OAUTH_SCOPE_MISMATCH' });
			expect([200, 204]).toContain((await coql(query, both)).status);
		}
		// no join: the module's own scope is enough
		expect([200, 204]).toContain(
			(await coql(`select Last_Name from Contacts where Last_Name is not null`, contactsOnly))
				.status,
		);
	});
});

/** A multipart body with one `file` part whose Content-Disposition parameters are given raw. */
function multipart(disposition: string, data = 'hello'): { body: Buffer; type: string } {
	const boundary = 'sec-boundary-7f3c';
	const body = Buffer.concat([
		Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: text/plain\r\n\r\n`,
			'latin1',
		),
		Buffer.from(data),
		Buffer.from(`\r\n--${boundary}--\r\n`),
	]);
	return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** The file name of a Content-Disposition header, by the client rule of §3.4. */
function dispositionName(header: string): string {
	const star = /filename\*=UTF-8''(.+)$/i.exec(header);
	if (star) return decodeURIComponent(star[1]);
	return /filename="(.*)"$/.exec(header)![1];
}

const VALID_DISPOSITION =
	/^attachment; (filename="[\x20-\x21\x23-\x5b\x5d-\x7e]*"|filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]+)$/;

describe('file names', () => {
	const upload = async (disposition: string) => {
		const { body, type } = multipart(disposition);
		const res = await api(`${url}/crm/v2.1/files`, token, {
			method: 'POST',
			body,
			headers: { 'Content-Type': type },
		});
		expect(res.status).toBe(201);
		return res.body.data[0].details as { name: string; id: string };
	};
	const download = async (id: string) => {
		const res = await fetch(`${url}/crm/v2.1/files?id=${id}`, {
			headers: { Authorization: `Bearer ${token}` },
		});
		await res.arrayBuffer();
		expect(res.status).toBe(200);
		return res.headers.get('content-disposition')!;
	};

	it.each([
		['NUL and other C0 in the plain form', 'filename="re\x00po\x01rt\x1b.txt"', 'report.txt'],
		[
			'CR, LF, TAB through the RFC 5987 form',
			"filename*=UTF-8''re%0D%0Apo%09rt%7F.txt",
			'report.txt',
		],
		['only control characters', "filename*=UTF-8''%00%0A%0D", 'file'],
	])('control characters are stripped (%s)', async (_label, disposition, expected) => {
		const file = await upload(disposition);
		expect(file.name).toBe(expected);
		const header = await download(file.id);
		expect(header).toMatch(VALID_DISPOSITION);
		expect(dispositionName(header)).toBe(expected);
	});

	it('names are capped at 255 characters, keeping the extension', async () => {
		const file = await upload(`filename="${'n'.repeat(400)}.pdf"`);
		expect([...file.name]).toHaveLength(255);
		expect(file.name.endsWith('.pdf')).toBe(true);
		expect(dispositionName(await download(file.id))).toBe(file.name);
	});

	it.each([
		['résumé (1)*.pdf', "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29%2A.pdf"],
		["it's.txt", "attachment; filename*=UTF-8''it%27s.txt"],
		['say "hi".txt', "attachment; filename*=UTF-8''say%20%22hi%22.txt"],
		['back\\slash.txt', 'attachment; filename="slash.txt"'],
		['plain name.txt', 'attachment; filename="plain name.txt"'],
	])('downloads of %j carry a valid RFC 6266 Content-Disposition', async (name, expected) => {
		const isAscii = /^[\x20-\x7e]*$/.test(name);
		const file = await upload(
			isAscii && !name.includes('"')
				? `filename="${name}"`
				: `filename*=UTF-8''${encodeURIComponent(name)}`,
		);
		const header = await download(file.id);
		expect(header).toBe(expected);
		expect(header).toMatch(VALID_DISPOSITION);
		expect(dispositionName(header)).toBe(file.name);
	});

	it('attachments and link attachments store clean names and download with a valid header', async () => {
		const lead = await api(`${url}/crm/v2.1/Leads`, token, {
			method: 'POST',
			body: { data: [{ Last_Name: 'Attach' }] },
		});
		const leadId = lead.body.data[0].details.id;
		const { body, type } = multipart("filename*=UTF-8''a%0D%0AContent-Type%3A%20x%00.txt");
		const up = await api(`${url}/crm/v2.1/Leads/${leadId}/Attachments`, token, {
			method: 'POST',
			body,
			headers: { 'Content-Type': type },
		});
		expect(up.status).toBe(201);
		const attachmentId = up.body.data[0].details.id;
		const res = await fetch(`${url}/crm/v2.1/Leads/${leadId}/Attachments/${attachmentId}`, {
			headers: { Authorization: `Bearer ${token}` },
		});
		await res.arrayBuffer();
		expect(res.status).toBe(200);
		const header = res.headers.get('content-disposition')!;
		expect(header).toMatch(VALID_DISPOSITION);
		expect(dispositionName(header)).toBe('aContent-Type: x.txt');

		const link = await api(`${url}/crm/v2.1/Leads/${leadId}/Attachments`, token, {
			method: 'POST',
			query: { attachmentUrl: 'https://files.example/docs/re\nport\x00.pdf' },
		});
		expect(link.status).toBe(201);
		const list = await api(`${url}/crm/v2.1/Leads/${leadId}/Attachments`, token, {
			query: { fields: 'File_Name' },
		});
		expect(list.body.data.map((a: any) => a.File_Name).sort()).toEqual([
			'aContent-Type: x.txt',
			'report.pdf',
		]);
	});
});

describe('request log', () => {
	it('keeps a bounded number of entries, the newest', async () => {
		const small = await startTestSandbox({ demo: false, requestLogLimit: 10 });
		try {
			for (let i = 0; i < 25; i++) await api(`${small.url}/__sandbox/health?i=${i}`);
			const log = await api(`${small.url}/__sandbox/requests`);
			expect(log.body.requests).toHaveLength(10);
			expect(log.body.requests.at(-1).url).toBe('/__sandbox/health?i=24');
			expect(log.body.requests[0].url).toBe('/__sandbox/health?i=15');
		} finally {
			await small.close();
		}
		expect(sb.sandbox.config.requestLogLimit).toBe(5000);
	});
});
