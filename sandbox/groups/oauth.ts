// OAuth server of docs/protocol.md §2.1: authorization-code grant with auto-approval, refresh grant, revoke.
import { randomBytes } from 'node:crypto';

import type { AccessTokenDoc } from '../auth.ts';
import { parseScopeList } from '../auth.ts';
import type { Ctx, Reply, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';

interface GrantCodeDoc {
	code: string;
	client_id: string;
	redirect_uri: string;
	scopes: string[];
	user_id: string;
	offline: boolean;
	expires_at: number;
}

interface RefreshTokenDoc {
	refresh_token: string;
	client_id: string;
	client_secret: string;
	user_id: string;
	scopes: string[];
	issued_at: number;
}

const token = (prefix: string) => `${prefix}.${randomBytes(16).toString('hex')}`;

/** Issuance limits of §2.1, applied when `config.oauthLimits` is on. */
const OAUTH_LIMITS = {
	refreshTokensPerUser: 20,
	accessTokensPerRefreshToken: 30,
	refreshTokensPerMinute: 5,
	accessTokensPerRefreshTokenPer10Min: 10,
};

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

/** Text echoed into an HTML body. */
function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** An absolute http(s) redirect target, else undefined (other schemes could run script in a browser). */
function redirectTarget(value: string): URL | undefined {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
	} catch {
		return undefined;
	}
}

function oauthError(error: string, status = 400): Reply {
	return { status, body: { error } };
}

/** Form fields from urlencoded, multipart or the query string; client credentials also via Basic. */
function tokenParams(ctx: Ctx): Record<string, string> {
	const params: Record<string, string> = { ...Object.fromEntries(ctx.query), ...ctx.formFields };
	const basic = /^Basic (.+)$/i.exec(ctx.header('authorization') ?? '');
	if (basic) {
		const [id, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
		params.client_id ??= decodeURIComponent(id ?? '');
		params.client_secret ??= decodeURIComponent(secret ?? '');
	}
	return params;
}

export function issueAccessToken(
	sandbox: Sandbox,
	grant: { client_id: string; user_id: string; scopes: string[]; refresh_token?: string },
): AccessTokenDoc {
	const doc: AccessTokenDoc = {
		access_token: token('at'),
		refresh_token: grant.refresh_token,
		client_id: grant.client_id,
		user_id: grant.user_id,
		scopes: grant.scopes,
		expires_at: sandbox.now() + sandbox.config.accessTokenLifetimeSec * 1000,
	};
	sandbox.store.putDoc('access_tokens', doc.access_token, doc);
	return doc;
}

function tokenResponse(sandbox: Sandbox, access: AccessTokenDoc, refreshToken?: string): Reply {
	return {
		body: {
			access_token: access.access_token,
			...(refreshToken ? { refresh_token: refreshToken } : {}),
			scope: access.scopes.join(','),
			api_domain: sandbox.config.publicOrigin,
			token_type: 'Bearer',
			expires_in: sandbox.config.accessTokenLifetimeSec,
		},
	};
}

/** Issue times of refresh tokens per user, and of access tokens per refresh token (§2.1 windows), per sandbox. */
const issueTimes = new WeakMap<
	Sandbox,
	{ refresh: Map<string, number[]>; access: Map<string, number[]> }
>();

function issueLog(sandbox: Sandbox): {
	refresh: Map<string, number[]>;
	access: Map<string, number[]>;
} {
	let times = issueTimes.get(sandbox);
	if (!times) issueTimes.set(sandbox, (times = { refresh: new Map(), access: new Map() }));
	return times;
}

function recent(
	sandbox: Sandbox,
	map: Map<string, number[]>,
	key: string,
	windowMs: number,
): number[] {
	const since = sandbox.now() - windowMs;
	const times = (map.get(key) ?? []).filter((t) => t > since);
	map.set(key, times);
	return times;
}

/** Drops the user's oldest refresh tokens (and their access tokens) beyond the limit. */
function trimRefreshTokens(sandbox: Sandbox, userId: string): void {
	const { store } = sandbox;
	const mine = store
		.docs<RefreshTokenDoc>('refresh_tokens')
		.filter((r) => r.user_id === userId)
		.sort((a, b) => a.issued_at - b.issued_at);
	for (const old of mine.slice(0, Math.max(mine.length - OAUTH_LIMITS.refreshTokensPerUser, 0))) {
		store.deleteDoc('refresh_tokens', old.refresh_token);
		for (const access of store.docs<AccessTokenDoc>('access_tokens')) {
			if (access.refresh_token === old.refresh_token)
				store.deleteDoc('access_tokens', access.access_token);
		}
	}
}

/** Drops the oldest active access tokens of a refresh token beyond the limit. */
function trimAccessTokens(sandbox: Sandbox, refreshToken: string): void {
	const { store } = sandbox;
	const active = store
		.docs<AccessTokenDoc>('access_tokens')
		.filter((a) => a.refresh_token === refreshToken && a.expires_at > sandbox.now())
		.sort((a, b) => a.expires_at - b.expires_at);
	for (const old of active.slice(
		0,
		Math.max(active.length - OAUTH_LIMITS.accessTokensPerRefreshToken, 0),
	)) {
		store.deleteDoc('access_tokens', old.access_token);
	}
}

/** Issues an access token from a refresh token, counting it against the §2.1 limits. */
function issueFromRefresh(sandbox: Sandbox, refresh: RefreshTokenDoc): AccessTokenDoc {
	const access = issueAccessToken(sandbox, { ...refresh });
	if (sandbox.config.oauthLimits) {
		const times = issueLog(sandbox).access;
		times.set(refresh.refresh_token, [...(times.get(refresh.refresh_token) ?? []), sandbox.now()]);
		trimAccessTokens(sandbox, refresh.refresh_token);
	}
	return access;
}

const opts = { root: 'oauth' as const, public: true };

export const authorize = operation('GET', '/auth', opts, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const redirectUri = ctx.q('redirect_uri');
	const clientId = ctx.q('client_id');
	if (ctx.q('response_type') !== 'code' || !redirectUri || !clientId)
		return oauthError('invalid_request');
	const target = redirectTarget(redirectUri);
	if (!target) return oauthError('invalid_request');
	const grant: GrantCodeDoc = {
		code: token('code'),
		client_id: clientId,
		redirect_uri: redirectUri,
		scopes: parseScopeList(ctx.q('scope')),
		user_id: sandbox.user().id,
		offline: ctx.q('access_type') === 'offline',
		expires_at: sandbox.now() + sandbox.config.grantCodeLifetimeSec * 1000,
	};
	store.putDoc('grant_codes', grant.code, grant);
	target.searchParams.set('code', grant.code);
	const state = ctx.query.get('state');
	if (state !== null) target.searchParams.set('state', state);
	// auto-approval (§2.1, assumed); the location also works for a browser following it
	const location = target.toString();
	return {
		status: 302,
		headers: { Location: location, 'Content-Type': 'text/html; charset=utf-8' },
		body: `<a href="${escapeHtml(location)}">continue</a>`,
	};
});

const issueToken = operation('POST', '/token', opts, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const p = tokenParams(ctx);
	if (!p.client_id || !p.client_secret) return oauthError('invalid_client');
	if (p.grant_type === 'authorization_code') {
		const grant = p.code ? store.doc<GrantCodeDoc>('grant_codes', p.code) : undefined;
		if (!grant || grant.expires_at <= sandbox.now() || grant.client_id !== p.client_id)
			return oauthError('invalid_code');
		// RFC 6749 §4.1.3: a redirect_uri sent at authorization is required here, identical
		if (grant.redirect_uri && p.redirect_uri !== grant.redirect_uri)
			return oauthError('invalid_redirect_uri');
		if (grant.offline && sandbox.config.oauthLimits) {
			if (
				recent(sandbox, issueLog(sandbox).refresh, grant.user_id, 60_000).length >=
				OAUTH_LIMITS.refreshTokensPerMinute
			)
				return oauthError('access_denied');
		}
		store.deleteDoc('grant_codes', grant.code); // single use
		if (!grant.offline) return tokenResponse(sandbox, issueAccessToken(sandbox, grant));
		const refresh: RefreshTokenDoc = {
			refresh_token: token('rt'),
			client_id: p.client_id,
			client_secret: p.client_secret,
			user_id: grant.user_id,
			scopes: grant.scopes,
			issued_at: sandbox.now(),
		};
		store.putDoc('refresh_tokens', refresh.refresh_token, refresh);
		if (sandbox.config.oauthLimits) {
			const times = issueLog(sandbox).refresh;
			times.set(grant.user_id, [...(times.get(grant.user_id) ?? []), sandbox.now()]);
			trimRefreshTokens(sandbox, grant.user_id);
		}
		return tokenResponse(sandbox, issueFromRefresh(sandbox, refresh), refresh.refresh_token);
	}
	if (p.grant_type === 'refresh_token') {
		const refresh = p.refresh_token
			? store.doc<RefreshTokenDoc>('refresh_tokens', p.refresh_token)
			: undefined;
		if (!refresh) return oauthError('invalid_grant');
		if (refresh.client_id !== p.client_id || refresh.client_secret !== p.client_secret)
			return oauthError('invalid_client');
		if (sandbox.config.oauthLimits) {
			const issued = recent(sandbox, issueLog(sandbox).access, refresh.refresh_token, 10 * 60_000);
			if (issued.length >= OAUTH_LIMITS.accessTokensPerRefreshTokenPer10Min)
				return oauthError('access_denied');
		}
		return tokenResponse(sandbox, issueFromRefresh(sandbox, refresh));
	}
	return oauthError('unsupported_grant_type');
});

const revokeToken = operation('POST', '/token/revoke', opts, (ctx) => {
	const { store } = ctx.sandbox;
	const refreshToken = ctx.q('token') ?? ctx.formFields.token;
	if (refreshToken && store.deleteDoc('refresh_tokens', refreshToken)) {
		for (const access of store.docs<AccessTokenDoc>('access_tokens')) {
			if (access.refresh_token === refreshToken)
				store.deleteDoc('access_tokens', access.access_token);
		}
	}
	return { body: { status: 'success' } };
});

export function registerOAuth(router: Router): void {
	router.register([authorize, issueToken, revokeToken]);
}
