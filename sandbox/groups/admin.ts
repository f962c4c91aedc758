 
// Test hooks under /__sandbox (not part of the CRM service): clock, token expiry, forced faults,
// request log, direct token minting, §7 limit counters. Beyond loopback they need the hook key
// (server.ts). Used by the test suites and by the README's curl walkthrough.
import type { AccessTokenDoc } from '../auth.ts';
import { parseScopeList } from '../auth.ts';
import type { Router } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { issueAccessToken } from './oauth.ts';

export function registerAdmin(router: Router, sandbox: Sandbox): void {
	const opts = { root: 'admin' as const, public: true };
	const { store } = sandbox;

	router.get('/health', () => ({ body: { status: 'ok', origin: sandbox.config.publicOrigin, upload_origin: sandbox.config.uploadOrigin } }), opts);

	/** moves the sandbox clock forward: `{ "advance_ms": 3600000 }` */
	router.post(
		'/clock',
		(ctx) => {
			sandbox.clockOffsetMs += Number(ctx.json().advance_ms ?? 0);
			return { body: { now: sandbox.formatTime(), offset_ms: sandbox.clockOffsetMs } };
		},
		opts,
	);

	/** expires one access token (`{ "access_token": "…" }`) or all of them */
	router.post(
		'/tokens/expire',
		(ctx) => {
			const only = ctx.json().access_token as string | undefined;
			let expired = 0;
			for (const doc of store.docs<AccessTokenDoc>('access_tokens')) {
				if (only && doc.access_token !== only) continue;
				store.putDoc('access_tokens', doc.access_token, { ...doc, expires_at: 0 });
				expired++;
			}
			return { body: { expired } };
		},
		opts,
	);

	/** mints an access token for the given scopes without the browser grant: `{ "scope": "CRM.modules.ALL" }` */
	router.post(
		'/tokens',
		(ctx) => {
			const body = ctx.json();
			const doc = issueAccessToken(sandbox, {
				client_id: String(body.client_id ?? 'sandbox-client'),
				user_id: String(body.user_id ?? sandbox.user().id),
				scopes: parseScopeList(String(body.scope ?? 'CRM.modules.ALL')),
			});
			return { status: 201, body: { access_token: doc.access_token, api_domain: sandbox.config.publicOrigin, expires_in: sandbox.config.accessTokenLifetimeSec } };
		},
		opts,
	);

	/**
	 * forces the next `count` API calls to answer `status`/`code` (§7 "a switch forcing 429"), or with
	 * `"drop": true` to lose their connection after taking effect
	 */
	router.post(
		'/faults',
		(ctx) => {
			const body = ctx.json();
			const status = Number(body.status ?? 429);
			sandbox.faultPlan.force({
				status,
				code: String(body.code ?? (status === 429 ? 'TOO_MANY_REQUESTS' : 'INTERNAL_ERROR')),
				remaining: Number(body.count ?? 1),
				pathIncludes: body.path_includes as string | undefined,
				drop: body.drop === true,
			});
			return { status: 201, body: { faults: sandbox.faultPlan.forced } };
		},
		opts,
	);

	router.delete('/faults', () => ({ body: { cleared: sandbox.faultPlan.clearForced() } }), opts);

	/** random fault injection: `{ "rate429": 0.1, "rate500": 0.1, "after": true, "seed": 7 }` (see faults.ts) */
	router.put(
		'/fault-plan',
		(ctx) => {
			sandbox.faultPlan.set(ctx.json());
			return { body: { plan: sandbox.faultPlan.plan } };
		},
		opts,
	);
	router.get('/fault-plan', () => ({ body: { plan: sandbox.faultPlan.plan, stats: sandbox.faultPlan.stats } }), opts);
	router.delete(
		'/fault-plan',
		() => {
			const stats = sandbox.faultPlan.stats;
			sandbox.faultPlan.clear();
			return { body: { stats } };
		},
		opts,
	);

	/** access tokens issued from now on live this many seconds (`{ "seconds": 5 }`) */
	router.put(
		'/token-lifetime',
		(ctx) => {
			sandbox.config.accessTokenLifetimeSec = Number(ctx.json().seconds ?? 3600);
			return { body: { seconds: sandbox.config.accessTokenLifetimeSec } };
		},
		opts,
	);

	/** the §7 limits: configuration, calls in flight per client, credits used in the window */
	router.get('/limits', () => ({ body: { limits: sandbox.limits.snapshot() } }), opts);

	router.get('/requests', () => ({ body: { requests: sandbox.requests } }), opts);
	router.delete('/requests', () => ({ body: { cleared: sandbox.requests.splice(0).length } }), opts);
}
