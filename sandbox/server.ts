// The sandbox's HTTP server, on fastify. An API call (call.ts) is admitted from its headers in an
// onRequest hook, before a body byte is read; fastify then reads the body, at most `maxBodyBytes`
// (one catch-all parser keeps the bytes as they came: the CRM parses JSON, forms and multipart as
// §3.1 and §3.3 say), and the handler answers with the call's reply or its §11 error. The pages
// (web/) have routes of their own. What fastify does not do is here: the lingering close after a
// refused body, the `drop` fault's half answer.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { fastify } from 'fastify';
import type {
	FastifyError,
	FastifyInstance,
	FastifyReply,
	FastifyRequest,
	preParsingHookHandler,
} from 'fastify';

import { admit, errorReply, faultReply, finishCall, respond, startCall } from './call.ts';
import type { Call } from './call.ts';
import { HttpError } from './errors.ts';
import { isLoopbackListen, registerListener } from './outbound.ts';
import type { Reply } from './router.ts';
import { Sandbox } from './sandbox.ts';
import type { Listener, SandboxSettings } from './types.ts';
import { FORM_LIMIT, isPageRequest, pageFailure, pageRefusal, servePage } from './web/index.ts';
import type { PageAnswer } from './web/index.ts';

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

declare module 'fastify' {
	interface FastifyRequest {
		/** the API call (set by the API routes' onRequest hook; none for the pages) */
		call?: Call;
	}
}

const JSON_TYPE = 'application/json;charset=UTF-8';

function send(reply: FastifyReply, out: Reply): void {
	reply.code(out.status ?? 200).headers(out.headers ?? {});
	if (reply.statusCode === 204 || reply.statusCode === 304) {
		reply.send();
	} else if (out.raw) {
		if (!reply.hasHeader('Content-Type')) reply.header('Content-Type', 'application/octet-stream');
		reply.send(out.raw);
	} else {
		const asIs = typeof out.body === 'string' && reply.hasHeader('Content-Type');
		if (!reply.hasHeader('Content-Type')) reply.header('Content-Type', JSON_TYPE);
		reply.send(asIs ? out.body : JSON.stringify(out.body ?? {}));
	}
}

function sendPage(reply: FastifyReply, page: PageAnswer): void {
	reply.code(page.status).headers(page.headers).send(page.body);
}

/** fastify's refusals of a body, as the contract's errors. */
function contractError(error: unknown, limit: number): unknown {
	const code = (error as FastifyError).code;
	if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
		return new HttpError(
			'FILE_SIZE_MORE_THAN_ALLOWED_SIZE',
			{ limit },
			'request body is larger than allowed',
		);
	// a Content-Type that is no media type at all: the body cannot be JSON (§3.1)
	if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
		return HttpError.invalidData({}, 'the request body is not JSON');
	return error;
}

/** How long a closing socket keeps discarding what the client still sends. */
const LINGER_MS = 2000;
/** Bodies up to this size that were not read are drained by node:http to keep the socket alive. */
const DRAIN_LIMIT = 64 * 1024;

function declaredLength(req: IncomingMessage): number | undefined {
	const raw = req.headers['content-length'];
	if (raw === undefined) return undefined;
	const n = Number(raw);
	return Number.isFinite(n) && n >= 0 ? n : undefined;
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
function closeAfterIfNeeded(req: IncomingMessage, reply: FastifyReply, status: number): void {
	const size = declaredLength(req);
	const sent = req.headers['transfer-encoding'] !== undefined || (size ?? 0) > 0;
	const unread = !req.complete && sent;
	if (status !== 413 && !(unread && (size === undefined || size > DRAIN_LIMIT))) return;
	reply.header('Connection', 'close');
	lingerOnClose(req.socket);
}

/** Answers an API call and ends it. */
function answer(sandbox: Sandbox, request: FastifyRequest, reply: FastifyReply, out: Reply): void {
	const call = request.call!;
	const status = out.status ?? 200;
	const headers = { ...out.headers };
	if (call.creditsRemaining !== undefined)
		headers['X-API-CREDITS-REMAINING'] = String(call.creditsRemaining);
	closeAfterIfNeeded(request.raw, reply, status);
	send(reply, { ...out, headers });
	finishCall(sandbox, request.raw, call, status);
}

/** The methods fastify routes; others (no route of the contract) reach the not-found handler. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/** One listener's fastify instance: the API, and on the API origin the pages. */
function buildApp(sandbox: Sandbox, listener: Listener): FastifyInstance {
	const { maxBodyBytes } = sandbox.config;
	const app = fastify({
		// clients (undici, axios agents) close idle sockets within seconds; the server waits longer so it
		// never closes a socket a client is about to reuse (that race shows up as ECONNRESET under load)
		keepAliveTimeout: 65_000,
		// node:http's default, which fastify would turn off
		requestTimeout: 300_000,
		// closing the sandbox ends its connections, idle or not
		forceCloseConnections: true,
		bodyLimit: maxBodyBytes,
		exposeHeadRoutes: false,
		routerOptions: { maxParamLength: 64 * 1024 },
		// a path the router cannot decode gets the contract's routing error, as any unknown path
		frameworkErrors: (_error, request, reply) => void notFound(request, reply),
	});
	app.server.headersTimeout = 66_000;
	app.removeAllContentTypeParsers();
	app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
	app.decorateRequest('call', undefined);

	/** API onRequest: the call, a fault answered before anything, else its admission. */
	const gate = async (request: FastifyRequest, reply: FastifyReply) => {
		const call = (request.call = startCall(sandbox, request.raw, listener));
		if (call.fault.kind === 'status' && !call.fault.after) {
			if (call.fault.delayMs) await new Promise((r) => setTimeout(r, call.fault.delayMs));
			answer(sandbox, request, reply, faultReply(call.fault));
			return reply;
		}
		await admit(sandbox, request.raw, call);
	};

	/** API preParsing: counts the body bytes read (none when the declared size is refused). */
	const countBody: preParsingHookHandler = (request, _reply, payload, done) => {
		if ((declaredLength(request.raw) ?? 0) <= maxBodyBytes) {
			let read = 0;
			payload.on('data', function count(chunk: Buffer) {
				read += chunk.length;
				sandbox.bodyBytesRead += chunk.length;
				if (read > maxBodyBytes) payload.removeListener('data', count);
			});
		}
		done(null, payload);
	};

	const handler = async (request: FastifyRequest, reply: FastifyReply) => {
		const call = request.call!;
		const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
		const out = await respond(sandbox, request.raw, call, body);
		if (call.fault.kind === 'drop') {
			// the call took effect; the client sees the connection close mid-response
			reply.hijack();
			reply.raw.writeHead(out.status ?? 200, {
				'Content-Type': JSON_TYPE,
				'Content-Length': '1000000',
			});
			reply.raw.write('{"data":[');
			reply.raw.socket?.destroy();
			finishCall(sandbox, request.raw, call, 0);
			return reply;
		}
		answer(sandbox, request, reply, call.fault.kind === 'status' ? faultReply(call.fault) : out);
		return reply;
	};

	/** Methods fastify does not route, and paths it cannot decode. */
	const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
		if (listener === 'api' && isPageRequest(request.raw)) {
			const refusal = pageRefusal(sandbox, request.raw);
			sendPage(reply, refusal ?? (await servePage(sandbox, request.raw, Buffer.alloc(0))));
			return reply;
		}
		try {
			await gate(request, reply);
			if (!reply.sent) throw HttpError.urlPattern();
		} catch (error) {
			if (!reply.sent) answer(sandbox, request, reply, errorReply(error));
		}
		return reply;
	};

	app.setErrorHandler((error, request, reply) => {
		if (!request.call) {
			// a page: its form over FORM_LIMIT, or the client gone while sending it
			sendPage(reply, pageFailure(contractError(error, FORM_LIMIT)));
		} else if (request.raw.aborted) {
			// the client went away before its body was complete: nobody to answer
			reply.hijack();
			finishCall(sandbox, request.raw, request.call, 0);
		} else {
			answer(sandbox, request, reply, errorReply(contractError(error, maxBodyBytes)));
		}
		return reply;
	});
	app.setNotFoundHandler(notFound);

	if (listener === 'api') {
		// the pages are no API: no faults, no limits, not in the request log
		for (const url of ['/', '/ui', '/ui/*']) {
			app.route({
				method: METHODS,
				url,
				bodyLimit: FORM_LIMIT,
				onRequest: async (request, reply) => {
					const refusal = pageRefusal(sandbox, request.raw);
					if (refusal) {
						sendPage(reply, refusal);
						return reply;
					}
				},
				handler: async (request, reply) => {
					const form = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
					sendPage(reply, await servePage(sandbox, request.raw, form));
					return reply;
				},
			});
		}
	}
	app.route({ method: METHODS, url: '/*', onRequest: gate, preParsing: countBody, handler });
	return app;
}

/** Listens on host:port (port 0 = a free port); answers the port. */
async function listen(app: FastifyInstance, port: number, host: string): Promise<number> {
	await app.listen({ port, host });
	return (app.server.address() as AddressInfo).port;
}

/** Starts a sandbox on host:port (port 0 = a free port); the public origin follows the real port. */
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
	const app = buildApp(sandbox, 'api');
	const originOf = (p: number) => `http://${host.includes(':') ? `[${host}]` : host}:${p}`;
	const actualPort = await listen(app, port, host);
	const url = originOf(actualPort);
	if (!options.publicOrigin) sandbox.config.publicOrigin = url;
	const apps = [app];
	let uploadUrl = url;
	if (sandbox.config.separateUploadHost) {
		const uploadApp = buildApp(sandbox, 'upload');
		try {
			uploadUrl = originOf(await listen(uploadApp, uploadPort, host));
		} catch (error) {
			// a taken upload port must not leave the API listener running
			await app.close();
			sandbox.close();
			throw new Error(
				`the sandbox's upload host cannot listen on ${host}:${uploadPort} (SANDBOX_UPLOAD_PORT)`,
				{ cause: error },
			);
		}
		apps.push(uploadApp);
	}
	if (!options.uploadOrigin)
		sandbox.config.uploadOrigin = sandbox.config.separateUploadHost
			? uploadUrl
			: sandbox.config.publicOrigin;
	const unregister = [
		registerListener({ port: actualPort, publicOrigin: () => sandbox.config.publicOrigin }),
	];
	if (apps.length > 1)
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
		server: app.server,
		async close() {
			for (const off of unregister) off();
			sandbox.close();
			await Promise.all(apps.map(async (a) => await a.close()));
		},
	};
}
