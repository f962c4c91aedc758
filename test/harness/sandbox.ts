// Test helpers for the sandbox over plain HTTP: start a throw-away sandbox, obtain a token through
// the real authorization-code grant (docs/protocol.md §2.1), and a tiny fetch wrapper for API calls.
import { startSandbox } from '../../sandbox/server.ts';
import type { RunningSandbox, SandboxOptions } from '../../sandbox/server.ts';
import { recordNodeRequests } from './requests';

export type { RunningSandbox, SandboxOptions };

/** Redirect URI used by the harness grant; the sandbox never calls it (auto-approval, 302 only). */
export const TEST_REDIRECT_URI = 'http://localhost:5678/rest/oauth2-credential/callback';
export const TEST_CLIENT_ID = 'test-client';
export const TEST_CLIENT_SECRET = 'test-secret';

/**
 * Starts a sandbox on a free port with an in-memory store and demo data; the requests the nodes
 * send to it are checked against the operation table (./requests.ts).
 */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const running = await startSandbox({ port: 0, dbPath: ':memory:', demo: true, ...options });
	recordNodeRequests(running.sandbox);
	return running;
}

export interface TokenResponse {
	access_token: string;
	refresh_token?: string;
	api_domain: string;
	token_type: string;
	expires_in: number;
	scope?: string;
	[key: string]: unknown;
}

export interface GrantOptions {
	/** comma-separated scope list (§2.3) */
	scope: string;
	clientId?: string;
	clientSecret?: string;
	redirectUri?: string;
	state?: string;
}

/**
 * Runs the authorization-code grant over HTTP: GET /oauth/v2/auth (302 with `code`), then
 * POST /oauth/v2/token (form-urlencoded). Returns the full token response; throws on failure.
 */
export async function grantToken(url: string, options: GrantOptions): Promise<TokenResponse> {
	const clientId = options.clientId ?? TEST_CLIENT_ID;
	const clientSecret = options.clientSecret ?? TEST_CLIENT_SECRET;
	const redirectUri = options.redirectUri ?? TEST_REDIRECT_URI;
	const auth = new URL('/oauth/v2/auth', url);
	auth.search = new URLSearchParams({
		response_type: 'code',
		client_id: clientId,
		redirect_uri: redirectUri,
		scope: options.scope,
		access_type: 'offline',
		state: options.state ?? 'harness-state',
	}).toString();
	const authRes = await fetch(auth, { redirect: 'manual' });
	await authRes.arrayBuffer();
	const location = authRes.headers.get('location');
	if (authRes.status !== 302 || !location) {
		throw new Error(`authorization failed: HTTP ${authRes.status}, location ${String(location)}`);
	}
	const code = new URL(location).searchParams.get('code');
	if (!code) throw new Error(`authorization redirect carries no code: ${location}`);
	const tokenRes = await fetch(new URL('/oauth/v2/token', url), {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			grant_type: 'authorization_code',
			client_id: clientId,
			client_secret: clientSecret,
			redirect_uri: redirectUri,
			code,
		}).toString(),
	});
	const body = (await tokenRes.json()) as TokenResponse;
	if (typeof body?.access_token !== 'string') {
		throw new Error(`token exchange failed: HTTP ${tokenRes.status} ${JSON.stringify(body)}`);
	}
	return body;
}

export interface ApiResponse<T = any> {
	status: number;
	headers: Headers;
	/** parsed JSON; undefined for an empty body; the raw text when the body is not JSON */
	body: T;
}

export interface ApiInit {
	/** HTTP method; GET when absent */
	method?: string;
	/** JSON-serialised (with `Content-Type: application/json`) unless a string or Uint8Array (sent as is) */
	body?: unknown;
	/** extra headers; `Authorization` here replaces the Bearer header, an empty value removes a header */
	headers?: Record<string, string>;
	/** query parameters appended to the URL */
	query?: Record<string, string | number | boolean>;
}

/**
 * A tiny fetch wrapper: `await api(`${url}/crm/v2.1/Leads`, token, { method: 'POST', body: {...} })`.
 * `url` is the full request URL. The token (when given) goes in `Authorization: Bearer <token>`.
 * Never follows redirects. Answers `{ status, headers, body }`, body parsed JSON (undefined when empty).
 */
export async function api<T = any>(
	url: string,
	token?: string,
	init: ApiInit = {},
): Promise<ApiResponse<T>> {
	const target = new URL(url);
	for (const [key, value] of Object.entries(init.query ?? {}))
		target.searchParams.set(key, String(value));
	const headers: Record<string, string> = {};
	if (token) headers.Authorization = `Bearer ${token}`;
	let body: string | Uint8Array | undefined;
	if (init.body !== undefined) {
		if (typeof init.body === 'string' || init.body instanceof Uint8Array) {
			body = init.body;
		} else {
			body = JSON.stringify(init.body);
			headers['Content-Type'] = 'application/json';
		}
	}
	for (const [key, value] of Object.entries(init.headers ?? {})) {
		const existing = Object.keys(headers).find((k) => k.toLowerCase() === key.toLowerCase());
		if (existing) delete headers[existing];
		if (value !== '') headers[key] = value;
	}
	const res = await fetch(target, {
		method: init.method ?? 'GET',
		headers,
		body,
		redirect: 'manual',
	});
	const text = await res.text();
	let parsed: unknown;
	if (text.length > 0) {
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = text;
		}
	}
	return { status: res.status, headers: res.headers, body: parsed as T };
}

/** Moves the sandbox clock forward (test hook POST /__sandbox/clock): record times, expiries, jobs. */
export async function advanceSandboxClock(url: string, ms: number): Promise<void> {
	const res = await api(`${url}/__sandbox/clock`, undefined, {
		method: 'POST',
		body: { advance_ms: ms },
	});
	if (res.status !== 200) throw new Error(`POST /__sandbox/clock: HTTP ${res.status}`);
}

/** A fault plan of the sandbox (test hook POST /__sandbox/faults), e.g. `{ status: 500, count: 4, path_includes: '/crm/v2.1/Leads' }`. */
export async function setSandboxFault(url: string, plan: Record<string, unknown>): Promise<void> {
	const res = await api(`${url}/__sandbox/faults`, undefined, { method: 'POST', body: plan });
	if (res.status !== 201) throw new Error(`POST /__sandbox/faults: HTTP ${res.status}`);
}

/** Removes every fault plan of the sandbox (DELETE /__sandbox/faults). */
export async function clearSandboxFaults(url: string): Promise<void> {
	await fetch(`${url}/__sandbox/faults`, { method: 'DELETE' });
}
