 
// OAuth server of wire-contract §2.1: authorization-code grant with auto-approval, refresh grant, revoke.
import { randomBytes } from 'node:crypto';

import type { AccessTokenDoc } from '../auth.ts';
import { parseScopeList } from '../auth.ts';
import type { Ctx, Reply, Router } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';

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

export function issueAccessToken(sandbox: Sandbox, grant: { client_id: string; user_id: string; scopes: string[]; refresh_token?: string }): AccessTokenDoc {
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

export function registerOAuth(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	const opts = { root: 'oauth' as const, public: true };

	router.get(
		'/auth',
		(ctx) => {
			const redirectUri = ctx.q('redirect_uri');
			const clientId = ctx.q('client_id');
			if (ctx.q('response_type') !== 'code' || !redirectUri || !clientId) return oauthError('invalid_request');
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
			const target = new URL(redirectUri);
			target.searchParams.set('code', grant.code);
			const state = ctx.query.get('state');
			if (state !== null) target.searchParams.set('state', state);
			// auto-approval (§2.1, assumed); the location also works for a browser following it
			return { status: 302, headers: { Location: target.toString(), 'Content-Type': 'text/html' }, body: `<a href="${target}">continue</a>` };
		},
		opts,
	);

	router.post(
		'/token',
		(ctx) => {
			const p = tokenParams(ctx);
			if (!p.client_id || !p.client_secret) return oauthError('invalid_client');
			if (p.grant_type === 'authorization_code') {
				const grant = p.code ? store.doc<GrantCodeDoc>('grant_codes', p.code) : undefined;
				if (!grant || grant.expires_at <= sandbox.now() || grant.client_id !== p.client_id) return oauthError('invalid_code');
				if (p.redirect_uri && p.redirect_uri !== grant.redirect_uri) return oauthError('invalid_redirect_uri');
				store.deleteDoc('grant_codes', grant.code); // single use
				let refreshToken: string | undefined;
				if (grant.offline) {
					refreshToken = token('rt');
					const refresh: RefreshTokenDoc = {
						refresh_token: refreshToken,
						client_id: p.client_id,
						client_secret: p.client_secret,
						user_id: grant.user_id,
						scopes: grant.scopes,
						issued_at: sandbox.now(),
					};
					store.putDoc('refresh_tokens', refreshToken, refresh);
				}
				const access = issueAccessToken(sandbox, { ...grant, refresh_token: refreshToken });
				return tokenResponse(sandbox, access, refreshToken);
			}
			if (p.grant_type === 'refresh_token') {
				const refresh = p.refresh_token ? store.doc<RefreshTokenDoc>('refresh_tokens', p.refresh_token) : undefined;
				if (!refresh) return oauthError('invalid_grant');
				if (refresh.client_id !== p.client_id || refresh.client_secret !== p.client_secret) return oauthError('invalid_client');
				const access = issueAccessToken(sandbox, { ...refresh });
				return tokenResponse(sandbox, access);
			}
			return oauthError('unsupported_grant_type');
		},
		opts,
	);

	router.post(
		'/token/revoke',
		(ctx) => {
			const refreshToken = ctx.q('token') ?? ctx.formFields.token;
			if (refreshToken && store.deleteDoc('refresh_tokens', refreshToken)) {
				for (const access of store.docs<AccessTokenDoc>('access_tokens')) {
					if (access.refresh_token === refreshToken) store.deleteDoc('access_tokens', access.access_token);
				}
			}
			return { body: { status: 'success' } };
		},
		opts,
	);
}
