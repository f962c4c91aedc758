// Test hooks under /__sandbox (not part of the CRM service): clock, token expiry, forced faults,
// request log, direct token minting, §7 limit counters, and reads of what the service offers no
// read for (bulk-job callback deliveries, record change events, stored file counts). Beyond
// loopback they need the hook key (server.ts). Used by the test suites and by the README's curl
// walkthrough. docs/protocol.md §14 lists them.
import type { AccessTokenDoc } from '../auth.ts';
import { parseScopeList } from '../auth.ts';
import type { CallbackLog } from '../jobs.ts';
import { operation } from '../router.ts';
import type { Router } from '../router.ts';
import type { ChangeEvent } from '../store.ts';
import type { Sandbox } from '../types.ts';
import { issueAccessToken } from './oauth.ts';
import { HttpError } from '../errors.ts';
import { DELIVERY_RETRY_POLICIES, retryDelaysOf } from '../sandbox.ts';

const admin = { root: 'admin' as const, public: true };

/** Change events kept per sandbox for GET /__sandbox/changes (the newest CHANGE_LOG_SIZE). */
const CHANGE_LOG_SIZE = 1000;

interface ChangeEntry {
	module: string;
	operation: ChangeEvent['operation'];
	related: boolean;
	ids: string[];
}

const changeLogs = new WeakMap<Sandbox, ChangeEntry[]>();

function changeLog(sandbox: Sandbox): ChangeEntry[] {
	let log = changeLogs.get(sandbox);
	if (!log) changeLogs.set(sandbox, (log = []));
	return log;
}

export const health = operation('GET', '/health', admin, (ctx) => ({
	body: {
		status: 'ok',
		origin: ctx.sandbox.config.publicOrigin,
		upload_origin: ctx.sandbox.config.uploadOrigin,
	},
}));

/** moves the sandbox clock forward: `{ "advance_ms": 3600000 }` */
export const advanceClock = operation('POST', '/clock', admin, (ctx) => {
	const { sandbox } = ctx;
	sandbox.clockOffsetMs += Number(ctx.json().advance_ms ?? 0);
	return { body: { now: sandbox.formatTime(), offset_ms: sandbox.clockOffsetMs } };
});

/** expires one access token (`{ "access_token": "…" }`) or all of them */
const expireTokens = operation('POST', '/tokens/expire', admin, (ctx) => {
	const { store } = ctx.sandbox;
	const only = ctx.json().access_token as string | undefined;
	let expired = 0;
	for (const doc of store.docs<AccessTokenDoc>('access_tokens')) {
		if (only && doc.access_token !== only) continue;
		store.putDoc('access_tokens', doc.access_token, { ...doc, expires_at: 0 });
		expired++;
	}
	return { body: { expired } };
});

/** mints an access token for the given scopes without the browser grant: `{ "scope": "CRM.modules.ALL" }` */
export const mintToken = operation('POST', '/tokens', admin, (ctx) => {
	const { sandbox } = ctx;
	const body = ctx.json();
	const doc = issueAccessToken(sandbox, {
		client_id: String(body.client_id ?? 'sandbox-client'),
		user_id: String(body.user_id ?? sandbox.user().id),
		scopes: parseScopeList(String(body.scope ?? 'CRM.modules.ALL')),
	});
	return {
		status: 201,
		body: {
			access_token: doc.access_token,
			api_domain: sandbox.config.publicOrigin,
			expires_in: sandbox.config.accessTokenLifetimeSec,
		},
	};
});

/**
 * forces the next `count` API calls to answer `status`/`code` (§7 "a switch forcing 429"), or with
 * `"drop": true` to lose their connection after taking effect
 */
const forceFaults = operation('POST', '/faults', admin, (ctx) => {
	const body = ctx.json();
	const status = Number(body.status ?? 429);
	ctx.sandbox.faultPlan.force({
		status,
		code: String(body.code ?? (status === 429 ? 'TOO_MANY_REQUESTS' : 'INTERNAL_ERROR')),
		remaining: Number(body.count ?? 1),
		pathIncludes: body.path_includes as string | undefined,
		drop: body.drop === true,
	});
	return { status: 201, body: { faults: ctx.sandbox.faultPlan.forced } };
});

const clearFaults = operation('DELETE', '/faults', admin, (ctx) => ({
	body: { cleared: ctx.sandbox.faultPlan.clearForced() },
}));

/** random fault injection: `{ "rate429": 0.1, "rate500": 0.1, "after": true, "seed": 7 }` (see faults.ts) */
const setFaultPlan = operation('PUT', '/fault-plan', admin, (ctx) => {
	ctx.sandbox.faultPlan.set(ctx.json());
	return { body: { plan: ctx.sandbox.faultPlan.plan } };
});

const getFaultPlan = operation('GET', '/fault-plan', admin, (ctx) => ({
	body: { plan: ctx.sandbox.faultPlan.plan, stats: ctx.sandbox.faultPlan.stats },
}));

const clearFaultPlan = operation('DELETE', '/fault-plan', admin, (ctx) => {
	const stats = ctx.sandbox.faultPlan.stats;
	ctx.sandbox.faultPlan.clear();
	return { body: { stats } };
});

/** access tokens issued from now on live this many seconds (`{ "seconds": 5 }`) */
const setTokenLifetime = operation('PUT', '/token-lifetime', admin, (ctx) => {
	const { config } = ctx.sandbox;
	config.accessTokenLifetimeSec = Number(ctx.json().seconds ?? 3600);
	return { body: { seconds: config.accessTokenLifetimeSec } };
});

/**
 * how often the CRM sends a notification delivery (§9.5 defines no policy): `{ "policy": "none" }`
 * sends each once, `default` makes the sandbox's 3 attempts; read back with GET
 */
const setDeliveryRetries = operation('PUT', '/delivery-retries', admin, (ctx) => {
	const policy = String(ctx.json().policy ?? '');
	let delays: number[];
	try {
		delays = retryDelaysOf(policy);
	} catch (error) {
		throw new HttpError('INVALID_DATA', { api_name: 'policy' }, (error as Error).message);
	}
	ctx.sandbox.config.deliveryRetryDelaysMs = delays;
	return { body: deliveryRetries(ctx.sandbox) };
});

const getDeliveryRetries = operation('GET', '/delivery-retries', admin, (ctx) => ({
	body: deliveryRetries(ctx.sandbox),
}));

function deliveryRetries(sandbox: Sandbox): { policy: string; delays_ms: number[] } {
	const delays = sandbox.config.deliveryRetryDelaysMs;
	const named = Object.entries(DELIVERY_RETRY_POLICIES).find(
		([, list]) => list.length === delays.length && list.every((d, i) => d === delays[i]),
	);
	return { policy: named?.[0] ?? 'custom', delays_ms: [...delays] };
}

/** the §7 limits: configuration, calls in flight per client, credits used in the window */
const getLimits = operation('GET', '/limits', admin, (ctx) => ({
	body: { limits: ctx.sandbox.limits.snapshot() },
}));

const getRequests = operation('GET', '/requests', admin, (ctx) => ({
	body: { requests: ctx.sandbox.requests },
}));

export const clearRequests = operation('DELETE', '/requests', admin, (ctx) => ({
	body: { cleared: ctx.sandbox.requests.splice(0).length },
}));

/** the deliveries of bulk-job callbacks (§10), oldest first, with their attempts: `?job_id=` */
const getCallbacks = operation('GET', '/callbacks', admin, (ctx) => {
	const jobId = ctx.q('job_id');
	const callbacks = ctx.sandbox.store
		.docs<CallbackLog>('bulk_callbacks')
		.filter((c) => !jobId || c.job_id === jobId);
	return { body: { callbacks } };
});

/** the record change events the service published (what notifications are made from), oldest first: `?module=` */
const getChanges = operation('GET', '/changes', admin, (ctx) => {
	const module = ctx.q('module');
	return {
		body: { changes: changeLog(ctx.sandbox).filter((c) => !module || c.module === module) },
	};
});

const clearChanges = operation('DELETE', '/changes', admin, (ctx) => ({
	body: { cleared: changeLog(ctx.sandbox).splice(0).length },
}));

/** how many files the sandbox holds: file bytes, shared file store entries, bulk-write uploads */
const getStorage = operation('GET', '/storage', admin, (ctx) => {
	const { store } = ctx.sandbox;
	// the blob table is created with the first stored file (files.ts)
	const hasBlobs =
		store.db
			.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'file_blobs'")
			.get() !== undefined;
	const blobs = hasBlobs
		? Number((store.db.prepare('SELECT count(*) AS n FROM file_blobs').get() as { n: number }).n)
		: 0;
	return {
		body: {
			blobs,
			files: store.docs('files').length,
			bulk_write_files: store.docs('bulk_write_files').length,
		},
	};
});

export function registerAdmin(router: Router, sandbox: Sandbox): void {
	// the change log starts with the sandbox, so it holds every change a test makes
	const log = changeLog(sandbox);
	sandbox.store.onChange((event) => {
		log.push({
			module: event.module,
			operation: event.operation,
			related: event.related === true,
			ids: event.changes.map((c) => c.id),
		});
		if (log.length > CHANGE_LOG_SIZE) log.splice(0, log.length - CHANGE_LOG_SIZE);
	});
	router.register([
		health,
		advanceClock,
		expireTokens,
		mintToken,
		forceFaults,
		clearFaults,
		setFaultPlan,
		getFaultPlan,
		clearFaultPlan,
		setTokenLifetime,
		setDeliveryRetries,
		getDeliveryRetries,
		getLimits,
		getRequests,
		clearRequests,
		getCallbacks,
		getChanges,
		clearChanges,
		getStorage,
	]);
}
