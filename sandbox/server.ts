// node:http front of the sandbox: splits the URL into root + version (§1.2), resolves the route
// and module (§3.10), authenticates (§2.2) and applies the §7 limits before any body byte is read,
// then parses the body, checks scopes (§2.3), dispatches, and renders replies and HttpErrors
// (§3.5, §11, §12).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { authenticate, checkScopes, expandScope } from './auth.ts';
import { makeCtx } from './context.ts';
import { HttpError } from './errors.ts';
import type { FaultDecision } from './faults.ts';
import { RequestAborted, isJsonContentType, parseMultipart, readBody } from './http.ts';
import { creditCost, isHeavyRoute, isRecordWrite } from './limits.ts';
import type { CallShape } from './limits.ts';
import { isLoopbackListen, registerListener } from './outbound.ts';
import type { Ctx, Method, Reply, Root, TokenInfo, Version } from './router.ts';
import { Sandbox } from './sandbox.ts';
import type { Listener, SandboxSettings, SeenRequest } from './types.ts';
import { isPagePath, servePage } from './web/index.ts';

export interface SandboxOptions extends SandboxSettings {
	port?: number;
	host?: string;
	/**
	 * port of the bulk-write upload host (§1.1) when `separateUploadHost` is on (the default):
	 * 0 = a free port; default `port + 1` for a fixed port, a free one for port 0
	 */
	uploadPort?: number;
}

export interface RunningSandbox {
	url: string;
	port: number;
	/** origin of the bulk-write upload host (`{upload_domain}`); `url` when uploads share the API origin */
	uploadUrl: string;
	sandbox: Sandbox;
	server: Server;
	close(): Promise<void>;
}

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

const JSON_TYPE = 'application/json;charset=UTF-8';

function send(res: ServerResponse, reply: Reply): number {
	const status = reply.status ?? 200;
	const headers: Record<string, string> = { ...reply.headers };
	if (status === 204 || status === 304) {
		res.writeHead(status, headers);
		res.end();
		return status;
	}
	if (reply.raw) {
		headers['Content-Type'] ??= 'application/octet-stream';
		headers['Content-Length'] = String(reply.raw.length);
		res.writeHead(status, headers);
		res.end(reply.raw);
		return status;
	}
	const text =
		typeof reply.body === 'string' && headers['Content-Type']
			? reply.body
			: JSON.stringify(reply.body ?? {});
	headers['Content-Type'] ??= JSON_TYPE;
	res.writeHead(status, headers);
	res.end(text);
	return status;
}

function errorReply(error: unknown): Reply {
	if (error instanceof HttpError) return { status: error.status, body: error.toBody() };
	console.error('[sandbox] unexpected error:', error);
	return { status: 500, body: new HttpError('INTERNAL_ERROR').toBody() };
}

/** Bodies up to this size that were not read are drained by node:http to keep the socket alive. */
const DRAIN_LIMIT = 64 * 1024;
/** How long a closing socket keeps discarding what the client still sends. */
const LINGER_MS = 2000;

function declaredLength(req: IncomingMessage): number | undefined {
	const raw = req.headers['content-length'];
	if (raw === undefined) return undefined;
	const n = Number(raw);
	return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function hasBody(req: IncomingMessage): boolean {
	return req.headers['transfer-encoding'] !== undefined || (declaredLength(req) ?? 0) > 0;
}

/**
 * Closing a socket while the peer still sends makes the kernel answer with a reset, which can
 * destroy the response before the client reads it. So the socket is half-closed after the answer,
 * what still arrives is discarded for a moment, and only then is it closed (a lingering close).
 */
function lingerOnClose(socket: Socket): void {
	socket.destroySoon = function destroySoon(this: Socket) {
		this.end();
		const timer = setTimeout(() => this.destroy(), LINGER_MS);
		timer.unref();
		this.once('close', () => clearTimeout(timer));
		return this;
	};
}

/**
 * A 413, and any answer given while a large (or unsized) body is still arriving, ends the
 * connection: `Connection: close` tells pooled clients not to reuse it, so they never send the
 * next request on a socket the sandbox is about to close.
 */
function closeAfterIfNeeded(req: IncomingMessage, res: ServerResponse, status: number): void {
	const unread = !req.complete && hasBody(req);
	const size = declaredLength(req);
	if (status !== 413 && !(unread && (size === undefined || size > DRAIN_LIMIT))) return;
	res.setHeader('Connection', 'close');
	lingerOnClose(req.socket);
}

/** Per-request bookkeeping of the §7 limits. */
interface CallState {
	/** ends the call's in-flight counts */
	release: Array<() => void>;
	/** `X-API-CREDITS-REMAINING` (§7) */
	creditsRemaining?: number;
	/** what the request carried, for the request observers */
	seen?: Pick<SeenRequest, 'bodyRead' | 'bodyKeys' | 'parts'>;
	/** the route that took the call, for the request log */
	route?: string;
}

export async function handle(
	sandbox: Sandbox,
	req: IncomingMessage,
	res: ServerResponse,
	listener: Listener = 'api',
): Promise<void> {
	const started = sandbox.now();
	const url = new URL(req.url ?? '/', 'http://sandbox.local');
	// the pages (web/) are no API: no faults, no limits, not in the request log
	if (listener === 'api' && isPagePath(url.pathname)) {
		await servePage(sandbox, req, res, url);
		return;
	}
	const split = splitRoot(url.pathname);
	// faults apply to API calls only, never to the OAuth endpoints or the test hooks
	const isApi = split !== undefined && split.root !== 'admin' && split.root !== 'oauth';
	const fault: FaultDecision = isApi ? sandbox.faultPlan.decide(url.pathname) : { kind: 'none' };
	const call: CallState = { release: [] };
	const answer = (reply: Reply): number => {
		const status = reply.status ?? 200;
		const headers = { ...reply.headers };
		if (call.creditsRemaining !== undefined)
			headers['X-API-CREDITS-REMAINING'] = String(call.creditsRemaining);
		closeAfterIfNeeded(req, res, status);
		return send(res, { ...reply, headers });
	};
	let status = 500;
	try {
		if (fault.kind === 'status' && !fault.after) {
			if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
			status = answer({
				status: fault.status,
				body: new HttpError(fault.code, {}, undefined, fault.status).toBody(),
			});
			return;
		}
		const reply = await respond(sandbox, req, url, split, call, listener, fault.delayMs);
		if (fault.kind === 'drop') {
			// the call took effect; the client sees the connection close mid-response
			res.writeHead(reply.status ?? 200, {
				'Content-Type': JSON_TYPE,
				'Content-Length': '1000000',
			});
			res.write('{"data":[');
			res.socket?.destroy();
			status = 0;
			return;
		}
		if (fault.kind === 'status') {
			status = answer({
				status: fault.status,
				body: new HttpError(fault.code, {}, undefined, fault.status).toBody(),
			});
			return;
		}
		status = answer(reply);
	} catch (error) {
		if (error instanceof RequestAborted) {
			status = 0; // the client went away: nobody to answer
			return;
		}
		status = answer(errorReply(error));
	} finally {
		for (const release of call.release) release();
		const method = req.method ?? 'GET';
		sandbox.logRequest({
			method,
			url: url.pathname + url.search,
			status,
			at: started,
			host: listener,
			...(call.route ? { route: call.route } : {}),
		});
		for (const observe of sandbox.requestObservers) {
			observe({
				method,
				url: url.pathname + url.search,
				status,
				host: listener,
				headers: req.headers,
				...call.seen,
			});
		}
	}
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

async function respond(
	sandbox: Sandbox,
	req: IncomingMessage,
	url: URL,
	split: SplitPath | undefined,
	call: CallState,
	listener: Listener,
	delayMs: number | undefined,
): Promise<Reply> {
	if (!split) throw HttpError.urlPattern();
	// with a separate upload host (§1.1) each origin serves only its own routes; the upload host
	// answers nothing else, and the API origin does not know the upload route
	const separate = sandbox.config.separateUploadHost;
	if (separate && listener === 'upload' && split.root !== 'crm') throw HttpError.urlPattern();
	const method = (req.method ?? 'GET').toUpperCase() as Method;

	const header = (name: string): string | undefined => {
		const value = req.headers[name.toLowerCase()];
		return Array.isArray(value) ? value[0] : value;
	};
	// everything that can refuse the call from its headers runs before a body byte is read, so an
	// unauthenticated or oversized upload costs no memory
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
	if (separate && Boolean(route.uploadHost) !== (listener === 'upload')) {
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
	const shape: CallShape = { root: split.root, method, pattern, query: url.searchParams };
	if (token) call.release.push(sandbox.limits.enter(token.clientId, isHeavyRoute(shape)));
	// a slow call (fault plan `delayMs`) holds its slot while it waits, as a slow call does on the service
	if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
	const { maxBodyBytes } = sandbox.config;
	if ((declaredLength(req) ?? 0) > maxBodyBytes) {
		throw new HttpError(
			'FILE_SIZE_MORE_THAN_ALLOWED_SIZE',
			{ limit: maxBodyBytes },
			'request body is larger than allowed',
		);
	}

	const rawBody = await readBody(req, maxBodyBytes, (n) => {
		sandbox.bodyBytesRead += n;
	});
	const contentType = req.headers['content-type'];
	let files: Ctx['files'] = [];
	let formFields: Record<string, string> = {};
	if (contentType?.toLowerCase().startsWith('multipart/form-data')) {
		({ files, fields: formFields } = parseMultipart(rawBody, contentType));
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
		query: url.searchParams,
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

/** Starts a sandbox on host:port (port 0 = a free port); the public origin follows the real port. */
async function listen(server: Server, port: number, host: string): Promise<number> {
	// clients (undici, axios agents) close idle sockets within seconds; the server waits longer so it
	// never closes a socket a client is about to reuse (that race shows up as ECONNRESET under load)
	server.keepAliveTimeout = 65_000;
	server.headersTimeout = 66_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => resolve());
	});
	return (server.address() as AddressInfo).port;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const {
		port = 0,
		host = '127.0.0.1',
		uploadPort = port === 0 ? 0 : port + 1,
		...config
	} = options;
	// beyond loopback the test hooks are reachable by others: they always need a key there
	if (!config.hookKey && !isLoopbackListen(host)) config.hookKey = randomBytes(24).toString('hex');
	const sandbox = new Sandbox(config);
	const server = createServer((req, res) => void handle(sandbox, req, res));
	const originOf = (p: number) => `http://${host.includes(':') ? `[${host}]` : host}:${p}`;
	const actualPort = await listen(server, port, host);
	const url = originOf(actualPort);
	if (!options.publicOrigin) sandbox.config.publicOrigin = url;
	const servers = [server];
	let uploadUrl = url;
	if (sandbox.config.separateUploadHost) {
		const uploadServer = createServer((req, res) => void handle(sandbox, req, res, 'upload'));
		try {
			uploadUrl = originOf(await listen(uploadServer, uploadPort, host));
		} catch (error) {
			// a taken upload port must not leave the API listener running
			server.closeAllConnections();
			server.close();
			sandbox.close();
			throw new Error(
				`the sandbox's upload host cannot listen on ${host}:${uploadPort} (SANDBOX_UPLOAD_PORT)`,
				{ cause: error },
			);
		}
		servers.push(uploadServer);
	}
	if (!options.uploadOrigin)
		sandbox.config.uploadOrigin = sandbox.config.separateUploadHost
			? uploadUrl
			: sandbox.config.publicOrigin;
	const unregister = [
		registerListener({ port: actualPort, publicOrigin: () => sandbox.config.publicOrigin }),
	];
	if (servers.length > 1)
		unregister.push(
			registerListener({
				port: Number(new URL(uploadUrl).port),
				publicOrigin: () => sandbox.config.uploadOrigin,
			}),
		);
	return {
		url,
		port: actualPort,
		uploadUrl,
		sandbox,
		server,
		async close() {
			for (const off of unregister) off();
			sandbox.close();
			await Promise.all(
				servers.map(async (s) => {
					s.closeAllConnections();
					await new Promise<void>((resolve) => s.close(() => resolve()));
				}),
			);
		},
	};
}
