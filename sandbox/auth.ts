// Token presentation (§2.2) and scope coverage (§2.3).
import { HttpError } from './errors.ts';
import type { Ctx, Method, TokenInfo } from './router.ts';
import type { Sandbox } from './types.ts';

export interface AccessTokenDoc {
	access_token: string;
	refresh_token?: string;
	client_id: string;
	user_id: string;
	scopes: string[];
	expires_at: number;
}

const ACCESS_OF_METHOD: Record<Method, string> = {
	GET: 'READ',
	POST: 'CREATE',
	PUT: 'UPDATE',
	PATCH: 'UPDATE',
	DELETE: 'DELETE',
};

function accessOf(method: Method): string {
	return ACCESS_OF_METHOD[method];
}

/** Module sub-area of a scope: lower case, underscores removed; custom modules map to `custom` (§2.3 rule 4). */
export function moduleScopeName(ctx: Ctx): string {
	const mod = ctx.module;
	if (!mod) return 'all';
	return mod.generated_type === 'custom' ? 'custom' : mod.api_name.toLowerCase().replace(/_/g, '');
}

/** Expands `{mod}` and `{ACCESS}` in a required scope. */
export function expandScope(scope: string, ctx: Ctx): string {
	return scope.replace('{mod}', moduleScopeName(ctx)).replace('{ACCESS}', accessOf(ctx.method));
}

function accessCovers(granted: string, needed: string): boolean {
	if (granted === needed || granted === 'all') return true;
	return granted === 'write' && (needed === 'create' || needed === 'update' || needed === 'delete');
}

/** Does one granted scope cover one needed scope (rules 1–4 of §2.3)? */
export function covers(grantedScope: string, neededScope: string): boolean {
	const g = grantedScope.trim().toLowerCase().split('.');
	const n = neededScope.trim().toLowerCase().split('.');
	if (g.length < 2 || n.length < 2) return false;
	const gAccess = g[g.length - 1];
	const nAccess = n[n.length - 1];
	const gPath = g.slice(0, -1);
	const nPath = n.slice(0, -1);
	// CRM.<area>.ALL covers everything under CRM.<area>.; CRM.<area>.<sub>.ALL every access of <sub>
	if (gAccess === 'all' && gPath.length <= nPath.length && gPath.every((s, i) => s === nPath[i]))
		return true;
	if (gPath.length !== nPath.length) return false;
	// `all` in the module position covers every module (CRM.send_mail.all.CREATE)
	const samePath = gPath.every((s, i) => s === nPath[i] || (i === 2 && s === 'all'));
	return samePath && accessCovers(gAccess, nAccess);
}

export function checkScopes(granted: string[], required: string[][]): boolean {
	return required.every((anyOf) => anyOf.some((needed) => granted.some((g) => covers(g, needed))));
}

/** Parses `Authorization: Bearer <token>` (or the configured extra prefix) and checks expiry. */
export function authenticate(sandbox: Sandbox, authorization: string | undefined): TokenInfo {
	if (!authorization) throw HttpError.invalidToken();
	const match = /^(\S+) (\S+)$/.exec(authorization.trim());
	if (!match) throw HttpError.invalidToken();
	const [, prefix, token] = match;
	const prefixes = ['bearer', sandbox.config.extraTokenPrefix.toLowerCase()];
	if (!prefixes.includes(prefix.toLowerCase())) throw HttpError.invalidToken();
	const doc = sandbox.store.doc<AccessTokenDoc>('access_tokens', token);
	if (!doc || doc.expires_at <= sandbox.now()) throw HttpError.invalidToken();
	return { accessToken: token, scopes: doc.scopes, clientId: doc.client_id, userId: doc.user_id };
}

/** Splits a scope parameter: comma-separated per the contract; spaces accepted too. */
export function parseScopeList(value: string | undefined): string[] {
	return (value ?? '')
		.split(/[,\s]+/)
		.map((s) => s.trim())
		.filter(Boolean);
}
