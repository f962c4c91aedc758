// One API call, from its headers to its reply, apart from the HTTP server (server.ts serves it on
// fastify): the URL's root and version (§1.2), the route and module (§3.10), authentication (§2.2)
// and the §7 limits, all before a body byte is read (`admit`); then the body's forms, the credits
// (§7), the scopes (§2.3) and the operation (`respond`); once answered, the request log and the
// request observers (`finishCall`).
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { authenticate, checkScopes, expandScope } from './auth.ts';
import { makeCtx } from './context.ts';
import { HttpError } from './errors.ts';
import type { FaultDecision } from './faults.ts';
import { isJsonContentType, parseMultipart } from './http.ts';
import { creditCost, isHeavyRoute, isRecordWrite } from './limits.ts';
import type { CallShape } from './limits.ts';
import type { Ctx, Method, Reply, Root, TokenInfo, Version } from './router.ts';
import type { Sandbox } from './sandbox.ts';
import type { Listener, SeenRequest } from './types.ts';

const ROOTS: Array<{ re: RegExp; root: Root }> = [
	{ re: /^\/oauth\/v2(\/.*)?$/, root: 'oauth' },
	{ re: /^\/crm\/bulk\/(v2|v2\.1)(\/.*)?$/, root: 'bulk' },
	{ re: /^\/crm\/(v2|v2\.1)(\/.*)?$/, root: 'crm' },
	{ re: /^\/(v2)\/crm(\/.*)?$/, root: 'download' },
	{ re: /^\/__sandbox(\/.*)?$/, root: 'admin' },
];

interface SplitPath {
	root: Root;
	v: Version;
	path: string;
}

function splitRoot(pathname: string): SplitPath | undefined {
	for (const { re, root } of ROOTS) {
		const m = re.exec(pathname);
		if (!m) continue;
		if (root === 'oauth' || root === 'admin') return { root, v: 'v2.1', path: m[1] ?? '/' };
		return { root, v: m[1] as Version, path: m[2] ?? '/' };
	}
	return undefined;
}

/** What `admit` found from the headers, for `respond`. */
interface Admitted {
	split: SplitPath;
	method: Method;
	route: ReturnType<Sandbox['router']['resolve']>['route'];
	params: Record<string, string>;
	token?: TokenInfo;
	module?: Ctx['module'];
	shape: CallShape;
}

/** One call's state: what the request log, the request observers and the §7 limits need. */
export interface Call {
	listener: Listener;
	started: number;
	url: URL;
	fault: FaultDecision;
	admitted?: Admitted;
	/** ends the call's in-flight counts */
	release: Array<() => void>;
	/** `X-API-CREDITS-REMAINING` (§7) */
	creditsRemaining?: number;
	/** what the request carried, for the request observers */
	seen?: Pick<SeenRequest, 'bodyRead' | 'bodyKeys' | 'parts'>;
	/** the route that took the call, for the request log */
	route?: string;
	/** finished (once) */
	done?: boolean;
}

export function startCall(sandbox: Sandbox, req: IncomingMessage, listener: Listener): Call {
	const url = new URL(req.url ?? '/', 'http://sandbox.local');
	const split = splitRoot(url.pathname);
	// faults apply to API calls only, never to the OAuth endpoints or the test hooks
	const isApi = split !== undefined && split.root !== 'admin' && split.root !== 'oauth';
	const fault: FaultDecision = isApi ? sandbox.faultPlan.decide(url.pathname) : { kind: 'none' };
	return { listener, started: sandbox.now(), url, fault, release: [] };
}

/** Ends a call once: releases its limits, logs it, tells the observers (status 0: no answer). */
export function finishCall(sandbox: Sandbox, req: IncomingMessage, call: Call, status: number) {
	if (call.done) return;
	call.done = true;
	for (const release of call.release) release();
	const method = req.method ?? 'GET';
	const url = call.url.pathname + call.url.search;
	sandbox.logRequest({
		method,
		url,
		status,
		at: call.started,
		host: call.listener,
		...(call.route ? { route: call.route } : {}),
	});
	for (const observe of sandbox.requestObservers) {
		observe({ method, url, status, host: call.listener, headers: req.headers, ...call.seen });
	}
}

/** The answer of a `status` fault (§7 errors forced by the fault plan). */
export function faultReply(fault: FaultDecision & { kind: 'status' }): Reply {
	return {
		status: fault.status,
		body: new HttpError(fault.code, {}, undefined, fault.status).toBody(),
	};
}

/** The answer to an error thrown while serving a call: the §11 envelope. */
export function errorReply(error: unknown): Reply {
	if (error instanceof HttpError) return { status: error.status, body: error.toBody() };
	console.error('[sandbox] unexpected error:', error);
	return { status: 500, body: new HttpError('INTERNAL_ERROR').toBody() };
}

/** The /__sandbox hooks need the configured key (header `X-Sandbox-Hook-Key`) when one is set. */
function checkHookKey(sandbox: Sandbox, req: IncomingMessage): void {
	const key = sandbox.config.hookKey;
	if (!key) return;
	const given = Buffer.from(String(req.headers['x-sandbox-hook-key'] ?? ''));
	const expected = Buffer.from(key);
	const ok = given.length === expected.length && timingSafeEqual(given, expected);
	if (!ok)
		throw new HttpError(
			'AUTHENTICATION_FAILURE',
			{},
			'the test hooks need a valid X-Sandbox-Hook-Key header',
		);
}

/**
 * Everything that can refuse the call from its headers runs before a body byte is read, so an
 * unauthenticated or oversized upload costs no memory (the size limit is the server's, checked
 * against Content-Length after these). Throws the refusal.
 */
export async function admit(sandbox: Sandbox, req: IncomingMessage, call: Call): Promise<void> {
	const split = splitRoot(call.url.pathname);
	if (!split) throw HttpError.urlPattern();
	// with a separate upload host (§1.1) each origin serves only its own routes; the upload host
	// answers nothing else, and the API origin does not know the upload route
	const separate = sandbox.config.separateUploadHost;
	const upload = call.listener === 'upload';
	if (separate && upload && split.root !== 'crm') throw HttpError.urlPattern();
	const method = (req.method ?? 'GET').toUpperCase() as Method;
	const header = (name: string): string | undefined => {
		const value = req.headers[name];
		return Array.isArray(value) ? value[0] : value;
	};
	if (split.root === 'admin') checkHookKey(sandbox, req);
	const external = (header('x-external') ?? '').length > 0;
	const { route, params } = sandbox.router.resolve(
		split.root,
		split.v,
		method,
		split.path,
		external,
	);
	const pattern = `/${route.segments.join('/')}`;
	call.route = `${route.method} ${pattern}`;
	if (separate && Boolean(route.uploadHost) !== upload) {
		throw HttpError.urlPattern(
			route.uploadHost
				? `the bulk-write upload is served on the upload host ${sandbox.config.uploadOrigin}`
				: undefined,
		);
	}
	let token: TokenInfo | undefined;
	if (!route.public) token = authenticate(sandbox, header('authorization'));
	let module: Ctx['module'];
	if (params.module !== undefined) {
		module = sandbox.module(params.module);
		if (!module) {
			const index = split.path.split('/').filter(Boolean).indexOf(params.module);
			throw new HttpError(
				'INVALID_MODULE',
				split.v === 'v2.1' ? { resource_path_index: Math.max(index, 0) } : {},
			);
		}
	}
	const shape: CallShape = { root: split.root, method, pattern, query: call.url.searchParams };
	if (token) call.release.push(sandbox.limits.enter(token.clientId, isHeavyRoute(shape)));
	// a slow call (fault plan `delayMs`) holds its slot while it waits, as a slow call does on the service
	if (call.fault.delayMs) await new Promise((r) => setTimeout(r, call.fault.delayMs));
	call.admitted = { split, method, route, params, token, module, shape };
}

/** Items of a record write (`data`), for the §7 cost and sub-concurrency rules; 1 when unreadable. */
function recordCount(ctx: Ctx): number {
	try {
		const data = ctx.json().data;
		return Array.isArray(data) ? data.length : 1;
	} catch {
		return 1;
	}
}

/** Top-level keys of a JSON object body; undefined when the body is not one. */
function jsonKeys(rawBody: Buffer, contentType: string | undefined): string[] | undefined {
	if (rawBody.length === 0 || !isJsonContentType(contentType)) return undefined;
	try {
		const value: unknown = JSON.parse(rawBody.toString('utf8'));
		return value && typeof value === 'object' && !Array.isArray(value)
			? Object.keys(value)
			: undefined;
	} catch {
		return undefined;
	}
}

/** An admitted call with its body read: forms, context, credits (§7), scopes (§2.3), operation. */
export async function respond(
	sandbox: Sandbox,
	req: IncomingMessage,
	call: Call,
	rawBody: Buffer,
): Promise<Reply> {
	const { split, method, route, params, token, module, shape } = call.admitted!;
	const contentType = req.headers['content-type'];
	let files: Ctx['files'] = [];
	let formFields: Record<string, string> = {};
	if (contentType?.toLowerCase().startsWith('multipart/form-data')) {
		({ files, fields: formFields } = await parseMultipart(rawBody, contentType));
		call.seen = {
			bodyRead: true,
			parts: [...files.map((f) => f.field), ...Object.keys(formFields)],
		};
	} else if (contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
		formFields = Object.fromEntries(new URLSearchParams(rawBody.toString('utf8')));
		call.seen = { bodyRead: true };
	} else if (sandbox.requestObservers.length > 0) {
		call.seen = { bodyRead: true, bodyKeys: jsonKeys(rawBody, contentType) };
	}

	const ctx = makeCtx({
		sandbox,
		method,
		path: split.path,
		root: split.root,
		v: split.v,
		params,
		module,
		token,
		query: call.url.searchParams,
		headers: req.headers,
		rawBody,
		files,
		formFields,
		contentType,
	});

	if (token) {
		const records = isRecordWrite(shape) ? recordCount(ctx) : 1;
		// create / update / upsert is resource-intensive above 10 records (§7)
		if (records > 10) call.release.push(sandbox.limits.enter(token.clientId, true, false));
		const credits = sandbox.limits.charge(creditCost(shape, records));
		call.creditsRemaining = credits.remaining;
		if (credits.error) throw credits.error;
	}
	if (route.scopes && ctx.token) {
		const rule = typeof route.scopes === 'function' ? route.scopes(ctx) : route.scopes;
		const required = rule.map((anyOf) => anyOf.map((s) => expandScope(s, ctx)));
		if (!checkScopes(ctx.token.scopes, required)) throw HttpError.scopeMismatch();
	}
	return await sandbox.router.dispatch(ctx, route);
}
