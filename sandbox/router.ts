// The one router of the sandbox: a method + path table per root, resolved as docs/protocol.md §3.10
// says (reserved first segments, literal beats parameter, wrong method 400, unknown module 400,
// no route 404). Group modules register routes; the server turns replies and HttpErrors into HTTP.
import { HttpError } from './errors.ts';
import type {
	Ctx,
	Handler,
	Method,
	Operation,
	Reply,
	Root,
	RouteOptions,
	Version,
} from './types.ts';

// the request vocabulary lives in types.ts (no import circle); re-exported for the groups
export type * from './types.ts';

interface Route extends RouteOptions {
	method: Method;
	segments: string[];
	literalCount: number;
	order: number;
	handler: Handler;
}

/** An operation of a group (groups/<group>/<operation>.ts), for `Router.register`. */
export function operation(
	method: Method,
	pattern: string,
	options: RouteOptions,
	handler: Handler,
): Operation {
	return { method, pattern, options, handler };
}

/** First segments resolved before module routes (§3.10). */
const RESERVED_SEGMENTS = new Set([
	'settings',
	'org',
	'users',
	'coql',
	'files',
	'actions',
	'upload',
	'__sandbox',
]);

const DIGITS = /^\d+$/;

export class Router {
	private routes: Route[] = [];

	private add(method: Method, pattern: string, handler: Handler, options: RouteOptions = {}): void {
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
		// more literal segments first (§3.10); equal ranks keep registration order, which decides
		// only `/Notes/search|deleted` under X-EXTERNAL (test/sandbox/route-precedence.test.ts pins every overlap)
		this.routes.sort((a, b) => b.literalCount - a.literalCount || a.order - b.order);
	}

	/** Registers a group's operations in their order (the tie-breaker between equal routes). */
	register(operations: Operation[]): void {
		for (const op of operations) this.add(op.method, op.pattern, op.handler, op.options);
	}

	/** Finds the route for a request; throws the contract's routing errors. */
	resolve(
		root: Root,
		v: Version,
		method: string,
		path: string,
		external: boolean,
	): { route: Route; params: Record<string, string> } {
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

function match(
	route: Route,
	parts: string[],
	external: boolean,
): Record<string, string> | undefined {
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
