/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The one router of the sandbox: a method + path table per root, resolved as docs/protocol.md §3.10
// says (reserved first segments, literal beats parameter, wrong method 400, unknown module 400,
// no route 404). Group modules register routes; the server turns replies and HttpErrors into HTTP.
import type { IncomingHttpHeaders } from 'node:http';

import { HttpError } from './errors.ts';
import type { ModuleDef } from './seed/modules.ts';
import type { Sandbox } from './sandbox.ts';
import type { Json } from './store.ts';

export type Version = 'v2' | 'v2.1';
export type Root = 'crm' | 'bulk' | 'oauth' | 'download' | 'admin';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface FilePart {
	field: string;
	filename: string;
	contentType: string;
	data: Buffer;
}

export interface TokenInfo {
	accessToken: string;
	scopes: string[];
	clientId: string;
	userId: string;
}

export interface Ctx {
	sandbox: Sandbox;
	method: Method;
	/** path below the root, e.g. `/Leads/4876876000000611001` */
	path: string;
	root: Root;
	v: Version;
	params: Record<string, string>;
	/** the route's `:module`, resolved to its canonical definition */
	module?: ModuleDef;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	rawBody: Buffer;
	files: FilePart[];
	formFields: Record<string, string>;
	token?: TokenInfo;
	/** parses the body as JSON (§3.1); throws INVALID_DATA when it is not */
	json(): Json;
	/** query value, trimmed; undefined when absent or empty */
	q(name: string): string | undefined;
	/** comma-joined or repeated query values (§3.2) */
	list(name: string): string[];
	header(name: string): string | undefined;
}

export interface Reply {
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** raw bytes (file downloads, §3.4) */
	raw?: Buffer;
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

/** Scopes required: every inner list must be covered by one granted scope (AND of ORs, §2.3). */
export type ScopeRule = string[][] | ((ctx: Ctx) => string[][]);

export interface RouteOptions {
	root?: Root;
	/** not served under /crm/v2/ (404 there, §0) */
	v21Only?: boolean;
	/** no token needed (OAuth endpoints, test hooks) */
	public?: boolean;
	scopes?: ScopeRule;
	/** `:id` segments accept any value (ids and external values, or API names) */
	anyId?: boolean;
}

interface Route extends RouteOptions {
	method: Method;
	segments: string[];
	literalCount: number;
	order: number;
	handler: Handler;
}

/** First segments resolved before module routes (§3.10). */
export const RESERVED_SEGMENTS = new Set(['settings', 'org', 'users', 'coql', 'files', 'actions', 'upload', '__sandbox']);

const DIGITS = /^\d+$/;

export class Router {
	private routes: Route[] = [];

	add(method: Method, pattern: string, handler: Handler, options: RouteOptions = {}): void {
		const segments = pattern.split('/').filter(Boolean);
		this.routes.push({
			...options,
			root: options.root ?? 'crm',
			method,
			segments,
			literalCount: segments.filter((s) => !s.startsWith(':')).length,
			order: this.routes.length,
			handler,
		});
		// literal beats parameter at the same depth; then registration order
		this.routes.sort((a, b) => b.literalCount - a.literalCount || a.order - b.order);
	}

	get(pattern: string, handler: Handler, options?: RouteOptions): void {
		this.add('GET', pattern, handler, options);
	}
	post(pattern: string, handler: Handler, options?: RouteOptions): void {
		this.add('POST', pattern, handler, options);
	}
	put(pattern: string, handler: Handler, options?: RouteOptions): void {
		this.add('PUT', pattern, handler, options);
	}
	patch(pattern: string, handler: Handler, options?: RouteOptions): void {
		this.add('PATCH', pattern, handler, options);
	}
	delete(pattern: string, handler: Handler, options?: RouteOptions): void {
		this.add('DELETE', pattern, handler, options);
	}

	/** Finds the route for a request; throws the contract's routing errors. */
	resolve(root: Root, v: Version, method: string, path: string, external: boolean): { route: Route; params: Record<string, string> } {
		const parts = path
			.split('/')
			.filter(Boolean)
			.map((p) => {
				try {
					return decodeURIComponent(p);
				} catch {
					throw HttpError.urlPattern(); // malformed percent-encoding matches no route
				}
			});
		let structural = false;
		for (const route of this.routes) {
			if (route.root !== root || (route.v21Only && v === 'v2')) continue;
			const params = match(route, parts, external);
			if (!params) continue;
			if (route.method !== method) {
				structural = true;
				continue;
			}
			return { route, params };
		}
		if (structural) throw HttpError.method();
		throw HttpError.urlPattern();
	}

	async dispatch(ctx: Ctx, route: Route): Promise<Reply> {
		return await route.handler(ctx);
	}
}

function match(route: Route, parts: string[], external: boolean): Record<string, string> | undefined {
	if (route.segments.length !== parts.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < parts.length; i++) {
		const seg = route.segments[i];
		const part = parts[i];
		if (!seg.startsWith(':')) {
			if (seg.toLowerCase() !== part.toLowerCase()) return undefined;
			continue;
		}
		const name = seg.slice(1);
		if (name === 'module') {
			if (i === 0 && RESERVED_SEGMENTS.has(part.toLowerCase())) return undefined;
			if (DIGITS.test(part)) return undefined;
		} else if (name.endsWith('Id') || name === 'id') {
			// `{id}` segments are digits unless X-EXTERNAL is present (§3.10)
			if (!route.anyId && !external && !DIGITS.test(part)) return undefined;
		} else if (name === 'relatedList' || name === 'action') {
			if (DIGITS.test(part)) return undefined;
		}
		params[name] = part;
	}
	return params;
}
