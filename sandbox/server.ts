/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console */
// node:http front of the sandbox: splits the URL into root + version (§1.2), parses the body,
// authenticates (§2.2), resolves the route and module (§3.10), checks scopes (§2.3), dispatches,
// and renders replies and HttpErrors (§3.5, §11, §12).
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { authenticate, checkScopes, expandScope } from './auth.ts';
import { HttpError } from './errors.ts';
import { isJsonContentType, parseMultipart, readBody } from './http.ts';
import type { Ctx, Method, Reply, Root, Version } from './router.ts';
import { Sandbox } from './sandbox.ts';
import type { SandboxConfig } from './sandbox.ts';
import type { Json } from './store.ts';

export interface SandboxOptions extends Partial<SandboxConfig> {
	port?: number;
	host?: string;
}

export interface RunningSandbox {
	url: string;
	port: number;
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

function splitRoot(pathname: string): { root: Root; v: Version; path: string } | undefined {
	for (const { re, root } of ROOTS) {
		const m = re.exec(pathname);
		if (!m) continue;
		if (root === 'oauth' || root === 'admin') return { root, v: 'v2.1', path: m[1] ?? '/' };
		return { root, v: m[1] as Version, path: m[2] ?? '/' };
	}
	return undefined;
}

const JSON_TYPE = 'application/json;charset=UTF-8';

/**
 * JSON.parse reviver: integers beyond 2^53 (19-digit ids sent as JSON numbers, §3.1) keep their
 * exact digits as strings instead of being rounded.
 */
function keepBigIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
	if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source)) {
		return context.source;
	}
	return value;
}

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
	const text = typeof reply.body === 'string' && headers['Content-Type'] ? reply.body : JSON.stringify(reply.body ?? {});
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

export async function handle(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const started = sandbox.now();
	const url = new URL(req.url ?? '/', 'http://sandbox.local');
	const isApi = !url.pathname.startsWith('/__sandbox') && !url.pathname.startsWith('/oauth/');
	const fault = isApi ? sandbox.faultPlan.decide(url.pathname) : ({ kind: 'none' } as const);
	let status = 500;
	try {
		if (sandbox.faultPlan.plan.delayMs && isApi) await new Promise((r) => setTimeout(r, sandbox.faultPlan.plan.delayMs));
		if (fault.kind === 'status' && !fault.after) {
			status = send(res, { status: fault.status, body: new HttpError(fault.code, {}, undefined, fault.status).toBody() });
			return;
		}
		const reply = await respond(sandbox, req, url);
		if (fault.kind === 'drop') {
			// the call took effect; the client sees the connection close mid-response
			res.writeHead(reply.status ?? 200, { 'Content-Type': JSON_TYPE, 'Content-Length': '1000000' });
			res.write('{"data":[');
			res.socket?.destroy();
			status = 0;
			return;
		}
		if (fault.kind === 'status') {
			status = send(res, { status: fault.status, body: new HttpError(fault.code, {}, undefined, fault.status).toBody() });
			return;
		}
		status = send(res, reply);
	} catch (error) {
		status = send(res, errorReply(error));
	} finally {
		sandbox.requests.push({ method: req.method ?? 'GET', url: url.pathname + url.search, status, at: started });
	}
}

async function respond(sandbox: Sandbox, req: IncomingMessage, url: URL): Promise<Reply> {
	const split = splitRoot(url.pathname);
	if (!split) throw HttpError.urlPattern();
	const method = (req.method ?? 'GET').toUpperCase() as Method;

	if (split.root !== 'admin' && split.root !== 'oauth') {
		const fault = sandbox.faults.find((f) => f.remaining > 0 && (!f.pathIncludes || url.pathname.includes(f.pathIncludes)));
		if (fault) {
			fault.remaining--;
			if (fault.remaining === 0) sandbox.faults.splice(sandbox.faults.indexOf(fault), 1);
			return { status: fault.status, body: new HttpError(fault.code, {}, undefined, fault.status).toBody() };
		}
	}

	const external = typeof req.headers['x-external'] === 'string' && req.headers['x-external'].length > 0;
	const { route, params } = sandbox.router.resolve(split.root, split.v, method, split.path, external);
	const rawBody = await readBody(req, sandbox.config.maxBodyBytes);
	const contentType = req.headers['content-type'];
	let files: Ctx['files'] = [];
	let formFields: Record<string, string> = {};
	if (contentType?.toLowerCase().startsWith('multipart/form-data')) {
		({ files, fields: formFields } = parseMultipart(rawBody, contentType));
	} else if (contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
		formFields = Object.fromEntries(new URLSearchParams(rawBody.toString('utf8')));
	}

	let parsed: Json | undefined;
	const ctx: Ctx = {
		sandbox,
		method,
		path: split.path,
		root: split.root,
		v: split.v,
		params,
		query: url.searchParams,
		headers: req.headers,
		rawBody,
		files,
		formFields,
		json() {
			if (parsed) return parsed;
			if (!isJsonContentType(contentType)) {
				throw HttpError.invalidData({}, 'the request body is not JSON');
			}
			try {
				const value: unknown = JSON.parse(rawBody.toString('utf8'), keepBigIntegers);
				if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
				parsed = value as Json;
			} catch {
				throw HttpError.invalidData({}, 'body is not a valid JSON object');
			}
			return parsed;
		},
		q(name) {
			const value = url.searchParams.get(name);
			return value === null || value.trim() === '' ? undefined : value.trim();
		},
		list(name) {
			return url.searchParams
				.getAll(name)
				.flatMap((v) => v.split(','))
				.map((v) => v.trim())
				.filter(Boolean);
		},
		header(name) {
			const value = req.headers[name.toLowerCase()];
			return Array.isArray(value) ? value[0] : value;
		},
	};

	if (!route.public) ctx.token = authenticate(sandbox, ctx.header('authorization'));
	if (params.module !== undefined) {
		const module = sandbox.module(params.module);
		if (!module) {
			const index = split.path.split('/').filter(Boolean).indexOf(params.module);
			throw new HttpError('INVALID_MODULE', ctx.v === 'v2.1' ? { resource_path_index: Math.max(index, 0) } : {});
		}
		ctx.module = module;
	}
	if (route.scopes && ctx.token) {
		const rule = typeof route.scopes === 'function' ? route.scopes(ctx) : route.scopes;
		const required = rule.map((anyOf) => anyOf.map((s) => expandScope(s, ctx)));
		if (!checkScopes(ctx.token.scopes, required)) throw HttpError.scopeMismatch();
	}
	return await sandbox.router.dispatch(ctx, route);
}

/** Starts a sandbox on host:port (port 0 = a free port); the public origin follows the real port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const { port = 0, host = '127.0.0.1', ...config } = options;
	const sandbox = new Sandbox(config);
	const server = createServer((req, res) => void handle(sandbox, req, res));
	// clients (undici, axios agents) close idle sockets within seconds; the server waits longer so it
	// never closes a socket a client is about to reuse (that race shows up as ECONNRESET under load)
	server.keepAliveTimeout = 65_000;
	server.headersTimeout = 66_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => resolve());
	});
	const actualPort = (server.address() as AddressInfo).port;
	const url = `http://${host}:${actualPort}`;
	if (!options.publicOrigin) sandbox.config.publicOrigin = url;
	return {
		url,
		port: actualPort,
		sandbox,
		server,
		async close() {
			sandbox.close();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
