// Contract tests of the sandbox OAuth server and token checks (docs/protocol.md §2.1–2.3) over HTTP.
import type { RunningSandbox } from '../harness/sandbox.ts';
import {
	api,
	grantToken,
	startTestSandbox,
	TEST_CLIENT_ID,
	TEST_CLIENT_SECRET,
	TEST_REDIRECT_URI,
} from '../harness/sandbox.ts';

let sb: RunningSandbox;
let url: string;

beforeAll(async () => {
	sb = await startTestSandbox();
	url = sb.url;
});

afterAll(async () => {
	await sb.close();
});

const REDIRECT = 'http://localhost:5678/callback';

/** GET /oauth/v2/auth without following the redirect. */
async function authorize(params: Record<string, string>): Promise<Response> {
	const target = new URL('/oauth/v2/auth', url);
	target.search = new URLSearchParams(params).toString();
	const res = await fetch(target, { redirect: 'manual' });
	await res.arrayBuffer();
	return res;
}

/** Runs the first leg and answers the grant code. */
async function codeFor(
	scope = 'CRM.modules.ALL',
	clientId = 'client-a',
	redirectUri = REDIRECT,
): Promise<string> {
	const res = await authorize({
		response_type: 'code',
		client_id: clientId,
		redirect_uri: redirectUri,
		scope,
		access_type: 'offline',
		state: 's1',
	});
	expect(res.status).toBe(302);
	return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

async function postToken(
	fields: Record<string, string>,
	headers: Record<string, string> = {},
): Promise<{ status: number; body: any; contentType: string | null }> {
	const res = await fetch(new URL('/oauth/v2/token', url), {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
		body: new URLSearchParams(fields).toString(),
	});
	return {
		status: res.status,
		body: await res.json(),
		contentType: res.headers.get('content-type'),
	};
}

async function exchange(code: string, overrides: Record<string, string> = {}) {
	return await postToken({
		grant_type: 'authorization_code',
		client_id: 'client-a',
		client_secret: 'secret-a',
		redirect_uri: REDIRECT,
		code,
		...overrides,
	});
}

async function refresh(refreshToken: string, overrides: Record<string, string> = {}) {
	return await postToken({
		grant_type: 'refresh_token',
		refresh_token: refreshToken,
		client_id: 'client-a',
		client_secret: 'secret-a',
		...overrides,
	});
}

async function getLeads(token: string, prefix = 'Bearer') {
	return await api(`${url}/crm/v2.1/Leads`, undefined, {
		query: { per_page: 1 },
		headers: { Authorization: `${prefix} ${token}` },
	});
}

function expectInvalidToken(res: { status: number; body: any }) {
	expect(res.status).toBe(401);
	expect(res.body).toEqual({
		code: 'INVALID_TOKEN',
		details: {},
		message: 'invalid oauth token',
		status: 'error',
	});
}

function expectScopeMismatch(res: { status: number; body: any }) {
	expect(res.status).toBe(401);
	expect(res.body).toEqual({
		code: 'OAUTH_SCOPE_MISMATCH',
		details: {},
		message: 'invalid oauth scope to access this URL',
		status: 'error',
	});
}

describe('authorization-code grant', () => {
	it('answers 302 to redirect_uri with code and state', async () => {
		const res = await authorize({
			response_type: 'code',
			client_id: 'client-a',
			redirect_uri: `${REDIRECT}?keep=1`,
			scope: 'CRM.modules.ALL,CRM.settings.ALL',
			access_type: 'offline',
			state: 'st-42 with space',
		});
		expect(res.status).toBe(302);
		const location = new URL(res.headers.get('location')!);
		expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
		expect(location.searchParams.get('keep')).toBe('1');
		expect(location.searchParams.get('state')).toBe('st-42 with space');
		expect(location.searchParams.get('code')).toMatch(/\S{8,}/);
	});

	it('refuses an authorization request without response_type=code', async () => {
		const res = await authorize({
			client_id: 'client-a',
			redirect_uri: REDIRECT,
			scope: 'CRM.modules.ALL',
		});
		expect(res.status).toBe(400);
	});

	it('exchanges the code for the contract token response', async () => {
		const res = await exchange(await codeFor());
		expect(res.status).toBe(200);
		expect(res.contentType).toMatch(/^application\/json/);
		expect(res.body).toEqual(
			expect.objectContaining({
				access_token: expect.any(String),
				refresh_token: expect.any(String),
				api_domain: url,
				token_type: 'Bearer',
				expires_in: 3600,
			}),
		);
		expect(res.body.access_token).not.toBe(res.body.refresh_token);
		expect(res.body).not.toHaveProperty('expires_in_sec');
		expect((await getLeads(res.body.access_token)).status).toBe(200);
	});

	it('api_domain is the sandbox origin with no trailing slash', async () => {
		const res = await exchange(await codeFor());
		expect(res.body.api_domain).toBe(`http://127.0.0.1:${sb.port}`);
		expect(res.body.api_domain.endsWith('/')).toBe(false);
	});

	it('grant codes are single-use', async () => {
		const code = await codeFor();
		const first = await exchange(code);
		expect(first.status).toBe(200);
		const second = await exchange(code);
		expect(second.status).toBe(400);
		expect(second.body).toEqual({ error: 'invalid_code' });
	});

	it('an unknown code answers invalid_code', async () => {
		const res = await exchange('code.does-not-exist');
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ error: 'invalid_code' });
		expect(res.body).not.toHaveProperty('access_token');
	});

	it('a code issued to another client is refused', async () => {
		const code = await codeFor('CRM.modules.ALL', 'client-b');
		const res = await exchange(code); // as client-a
		expect(res.status).toBe(400);
		expect(res.body).not.toHaveProperty('access_token');
		expect(typeof res.body.error).toBe('string');
	});

	it('missing client credentials answer invalid_client', async () => {
		const code = await codeFor();
		const noSecret = await postToken({
			grant_type: 'authorization_code',
			client_id: 'client-a',
			redirect_uri: REDIRECT,
			code,
		});
		expect(noSecret.status).toBe(400);
		expect(noSecret.body).toEqual({ error: 'invalid_client' });
		const noId = await postToken({
			grant_type: 'authorization_code',
			client_secret: 'secret-a',
			redirect_uri: REDIRECT,
			code,
		});
		expect(noId.status).toBe(400);
		expect(noId.body).toEqual({ error: 'invalid_client' });
		// the refused attempts did not consume the code
		expect((await exchange(code)).status).toBe(200);
	});

	it('a redirect_uri differing from the authorization request is refused', async () => {
		const code = await codeFor();
		const res = await exchange(code, { redirect_uri: 'http://evil.example/callback' });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ error: 'invalid_redirect_uri' });
		expect(res.body).not.toHaveProperty('access_token');
	});

	it('accepts client credentials in HTTP Basic', async () => {
		const code = await codeFor();
		const basic = Buffer.from('client-a:secret-a').toString('base64');
		const res = await postToken(
			{ grant_type: 'authorization_code', redirect_uri: REDIRECT, code },
			{ Authorization: `Basic ${basic}` },
		);
		expect(res.status).toBe(200);
		expect(res.body.token_type).toBe('Bearer');
		expect((await getLeads(res.body.access_token)).status).toBe(200);
		// the refresh token is bound to the Basic credentials
		const refreshed = await postToken(
			{ grant_type: 'refresh_token', refresh_token: res.body.refresh_token },
			{ Authorization: `Basic ${basic}` },
		);
		expect(refreshed.status).toBe(200);
		expect(typeof refreshed.body.access_token).toBe('string');
	});

	it('accepts the token request as query parameters', async () => {
		const code = await codeFor();
		const target = new URL('/oauth/v2/token', url);
		target.search = new URLSearchParams({
			grant_type: 'authorization_code',
			client_id: 'client-a',
			client_secret: 'secret-a',
			redirect_uri: REDIRECT,
			code,
		}).toString();
		const res = await fetch(target, { method: 'POST' });
		const body: any = await res.json();
		expect(res.status).toBe(200);
		expect(typeof body.access_token).toBe('string');
	});

	it('grant codes expire after 10 minutes', async () => {
		const code = await codeFor();
		const clock = await api(`${url}/__sandbox/clock`, undefined, {
			method: 'POST',
			body: { advance_ms: 10 * 60_000 + 1000 },
		});
		expect(clock.status).toBe(200);
		const res = await exchange(code);
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ error: 'invalid_code' });
	});

	it('the harness grantToken runs the same flow', async () => {
		const token = await grantToken(url, { scope: 'CRM.modules.ALL' });
		expect(token.api_domain).toBe(url);
		expect(token.expires_in).toBe(3600);
		expect(typeof token.refresh_token).toBe('string');
		const custom = await grantToken(url, {
			scope: 'CRM.modules.ALL',
			clientId: TEST_CLIENT_ID,
			clientSecret: TEST_CLIENT_SECRET,
		});
		expect(custom.access_token).not.toBe(token.access_token);
		expect(TEST_REDIRECT_URI).toMatch(/^http/);
	});
});

describe('refresh grant and revoke', () => {
	it('refresh answers a new access token without refresh_token', async () => {
		const first = await exchange(await codeFor());
		const res = await refresh(first.body.refresh_token);
		expect(res.status).toBe(200);
		expect(res.body).toEqual(
			expect.objectContaining({
				access_token: expect.any(String),
				api_domain: url,
				token_type: 'Bearer',
				expires_in: 3600,
			}),
		);
		expect(res.body).not.toHaveProperty('refresh_token');
		expect(res.body.access_token).not.toBe(first.body.access_token);
		expect((await getLeads(res.body.access_token)).status).toBe(200);
		// the earlier access token keeps working until it expires
		expect((await getLeads(first.body.access_token)).status).toBe(200);
	});

	it('refresh keeps the granted scopes', async () => {
		const first = await exchange(await codeFor('CRM.settings.ALL'));
		const res = await refresh(first.body.refresh_token);
		expect(res.status).toBe(200);
		expectScopeMismatch(await getLeads(res.body.access_token));
		const modules = await api(`${url}/crm/v2.1/settings/modules`, res.body.access_token);
		expect(modules.status).toBe(200);
	});

	it('refresh with an unknown refresh token answers invalid_grant', async () => {
		const res = await refresh('rt.unknown');
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ error: 'invalid_grant' });
	});

	it('refresh with the wrong client secret answers invalid_client', async () => {
		const first = await exchange(await codeFor());
		const res = await refresh(first.body.refresh_token, { client_secret: 'wrong' });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ error: 'invalid_client' });
	});

	it('an unsupported grant_type is refused', async () => {
		const res = await postToken({
			grant_type: 'password',
			client_id: 'client-a',
			client_secret: 'secret-a',
		});
		expect(res.status).toBe(400);
		expect(res.body).not.toHaveProperty('access_token');
		expect(typeof res.body.error).toBe('string');
	});

	it('revoke kills the refresh token and every access token issued from it', async () => {
		const first = await exchange(await codeFor());
		const refreshed = await refresh(first.body.refresh_token);
		// an unrelated grant stays valid
		const other = await exchange(await codeFor());
		expect((await getLeads(first.body.access_token)).status).toBe(200);
		expect((await getLeads(refreshed.body.access_token)).status).toBe(200);

		const revokeUrl = new URL('/oauth/v2/token/revoke', url);
		revokeUrl.searchParams.set('token', first.body.refresh_token);
		const res = await fetch(revokeUrl, { method: 'POST' });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ status: 'success' });

		expectInvalidToken(await getLeads(first.body.access_token));
		expectInvalidToken(await getLeads(refreshed.body.access_token));
		const again = await refresh(first.body.refresh_token);
		expect(again.status).toBe(400);
		expect(again.body).toEqual({ error: 'invalid_grant' });
		expect((await getLeads(other.body.access_token)).status).toBe(200);
	});
});

describe('token expiry', () => {
	it('POST /__sandbox/tokens/expire expires one access token; refresh recovers', async () => {
		const first = await exchange(await codeFor());
		const other = await exchange(await codeFor());
		const res = await api(`${url}/__sandbox/tokens/expire`, undefined, {
			method: 'POST',
			body: { access_token: first.body.access_token },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ expired: 1 });
		expectInvalidToken(await getLeads(first.body.access_token));
		expect((await getLeads(other.body.access_token)).status).toBe(200);
		const refreshed = await refresh(first.body.refresh_token);
		expect(refreshed.status).toBe(200);
		expect((await getLeads(refreshed.body.access_token)).status).toBe(200);
	});

	it('access tokens expire after expires_in seconds of sandbox clock', async () => {
		const first = await exchange(await codeFor());
		let clock = await api(`${url}/__sandbox/clock`, undefined, {
			method: 'POST',
			body: { advance_ms: 3599_000 },
		});
		expect(clock.status).toBe(200);
		expect((await getLeads(first.body.access_token)).status).toBe(200);
		clock = await api(`${url}/__sandbox/clock`, undefined, {
			method: 'POST',
			body: { advance_ms: 2_000 },
		});
		expect(clock.status).toBe(200);
		expectInvalidToken(await getLeads(first.body.access_token));
		// the refresh token outlives the access token
		const refreshed = await refresh(first.body.refresh_token);
		expect(refreshed.status).toBe(200);
		expect((await getLeads(refreshed.body.access_token)).status).toBe(200);
	});
});

describe('token presentation (§2.2)', () => {
	let token: string;
	beforeAll(async () => {
		token = (await grantToken(url, { scope: 'CRM.modules.ALL' })).access_token;
	});

	it('accepts Bearer', async () => {
		expect((await getLeads(token, 'Bearer')).status).toBe(200);
	});

	it('accepts the configured extra prefix Crm-oauthtoken', async () => {
		const res = await getLeads(token, 'Crm-oauthtoken');
		expect(res.status).toBe(200);
		expect(Array.isArray(res.body.data)).toBe(true);
	});

	it('refuses other prefixes', async () => {
		expectInvalidToken(await getLeads(token, 'Token'));
	});

	it('does not accept the token in the query string', async () => {
		const res = await api(`${url}/crm/v2.1/Leads`, undefined, {
			query: { access_token: token, authtoken: token },
		});
		expectInvalidToken(res);
	});

	it('does not accept the token in the body', async () => {
		const res = await api(`${url}/crm/v2.1/Leads`, undefined, {
			method: 'POST',
			body: { access_token: token, data: [{ Last_Name: 'Body Token' }] },
		});
		expectInvalidToken(res);
	});
});

describe('scope enforcement (§2.3)', () => {
	it('CRM.settings.ALL alone cannot read Leads', async () => {
		const { access_token } = await grantToken(url, { scope: 'CRM.settings.ALL' });
		expectScopeMismatch(await api(`${url}/crm/v2.1/Leads`, access_token));
		expect((await api(`${url}/crm/v2.1/settings/modules`, access_token)).status).toBe(200);
	});

	it('CRM.modules.leads.READ reads Leads only and cannot create', async () => {
		const { access_token } = await grantToken(url, { scope: 'CRM.modules.leads.READ' });
		const leads = await api(`${url}/crm/v2.1/Leads`, access_token, { query: { per_page: 2 } });
		expect(leads.status).toBe(200);
		expect(leads.body.data).toHaveLength(2);
		expectScopeMismatch(await api(`${url}/crm/v2.1/Contacts`, access_token));
		const create = await api(`${url}/crm/v2.1/Leads`, access_token, {
			method: 'POST',
			body: { data: [{ Last_Name: 'Scoped' }] },
		});
		expectScopeMismatch(create);
		expectScopeMismatch(
			await api(`${url}/crm/v2.1/Leads`, access_token, { method: 'DELETE', query: { ids: '1' } }),
		);
		expectScopeMismatch(await api(`${url}/crm/v2.1/settings/modules`, access_token));
	});

	it('CRM.modules.leads.WRITE can create, update and delete Leads', async () => {
		const { access_token } = await grantToken(url, { scope: 'CRM.modules.leads.WRITE' });
		const create = await api(`${url}/crm/v2.1/Leads`, access_token, {
			method: 'POST',
			body: { data: [{ Last_Name: 'Writer' }] },
		});
		expect(create.status).toBe(201);
		expect(create.body.data[0].code).toBe('SUCCESS');
		const id = create.body.data[0].details.id;
		const update = await api(`${url}/crm/v2.1/Leads/${id}`, access_token, {
			method: 'PUT',
			body: { data: [{ Company: 'W Inc' }] },
		});
		expect(update.status).toBe(200);
		// WRITE = CREATE + UPDATE + DELETE, not READ
		expectScopeMismatch(await api(`${url}/crm/v2.1/Leads/${id}`, access_token));
		const del = await api(`${url}/crm/v2.1/Leads/${id}`, access_token, { method: 'DELETE' });
		expect(del.status).toBe(200);
		expect(del.body.data[0].code).toBe('SUCCESS');
	});

	it('CRM.modules.leads.CREATE can create but not update', async () => {
		const { access_token } = await grantToken(url, { scope: 'CRM.modules.leads.CREATE' });
		const create = await api(`${url}/crm/v2.1/Leads`, access_token, {
			method: 'POST',
			body: { data: [{ Last_Name: 'Creator' }] },
		});
		expect(create.status).toBe(201);
		const id = create.body.data[0].details.id;
		expectScopeMismatch(
			await api(`${url}/crm/v2.1/Leads/${id}`, access_token, {
				method: 'PUT',
				body: { data: [{ Company: 'X' }] },
			}),
		);
	});

	it('scope names compare case-insensitively', async () => {
		const lower = await grantToken(url, { scope: 'crm.modules.leads.read' });
		expect(
			(await api(`${url}/crm/v2.1/Leads`, lower.access_token, { query: { per_page: 1 } })).status,
		).toBe(200);
		const mixed = await grantToken(url, { scope: 'Crm.Modules.All' });
		expect(
			(await api(`${url}/crm/v2.1/Contacts`, mixed.access_token, { query: { per_page: 1 } }))
				.status,
		).toBe(200);
		expect(
			(await api(`${url}/crm/v2/leads`, mixed.access_token, { query: { per_page: 1 } })).status,
		).toBe(200);
	});

	it('module sub-areas drop underscores and custom modules map to custom', async () => {
		const so = await grantToken(url, { scope: 'CRM.modules.salesorders.READ' });
		expect(
			(await api(`${url}/crm/v2.1/Sales_Orders`, so.access_token, { query: { per_page: 1 } }))
				.status,
		).not.toBe(401);
		expectScopeMismatch(await api(`${url}/crm/v2.1/Leads`, so.access_token));
		const custom = await grantToken(url, { scope: 'CRM.modules.custom.ALL' });
		expect(
			(await api(`${url}/crm/v2.1/Projects`, custom.access_token, { query: { per_page: 1 } }))
				.status,
		).not.toBe(401);
		expectScopeMismatch(await api(`${url}/crm/v2.1/Leads`, custom.access_token));
	});

	it('settings scopes: CRM.settings.modules.READ reads modules but cannot update them or read fields', async () => {
		const { access_token } = await grantToken(url, { scope: 'CRM.settings.modules.READ' });
		expect((await api(`${url}/crm/v2.1/settings/modules`, access_token)).status).toBe(200);
		expectScopeMismatch(
			await api(`${url}/crm/v2.1/settings/modules/Leads`, access_token, {
				method: 'PUT',
				body: { modules: [{ plural_label: 'Leads' }] },
			}),
		);
		expectScopeMismatch(
			await api(`${url}/crm/v2.1/settings/fields`, access_token, { query: { module: 'Leads' } }),
		);
	});

	it('several granted scopes combine', async () => {
		const { access_token } = await grantToken(url, {
			scope: 'CRM.modules.leads.READ,CRM.modules.contacts.ALL',
		});
		expect(
			(await api(`${url}/crm/v2.1/Leads`, access_token, { query: { per_page: 1 } })).status,
		).toBe(200);
		expect(
			(await api(`${url}/crm/v2.1/Contacts`, access_token, { query: { per_page: 1 } })).status,
		).toBe(200);
		expectScopeMismatch(await api(`${url}/crm/v2.1/Accounts`, access_token));
	});
});
