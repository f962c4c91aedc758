// The pages' way into the service: an API operation run in process through the sandbox's one
// router, as the admin user, with the very handler, validation and store writes of the HTTP call
// (so record changes made on a page publish the same change events, and notification deliveries
// follow, docs/protocol.md §9). The API limits, the fault plan and the request log are for API
// clients and do not apply to the pages.
import { makeCtx } from '../context.ts';
import { HttpError } from '../errors.ts';
import type { Sandbox } from '../sandbox.ts';
import type { Method, Root } from '../types.ts';

export interface ApiAnswer {
	status: number;
	// the operation's JSON body (untyped, as a client sees it)
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
}

/**
 * Runs `method path` (below /crm/v2.1, or below /__sandbox with root `admin`) with an optional JSON
 * body; the service's errors come back as their status and error body, never thrown.
 */
export async function callApi(
	sandbox: Sandbox,
	method: Method,
	pathAndQuery: string,
	body?: unknown,
	root: Root = 'crm',
): Promise<ApiAnswer> {
	const url = new URL(pathAndQuery, 'http://sandbox.local');
	try {
		const { route, params } = sandbox.router.resolve(root, 'v2.1', method, url.pathname, false);
		const module = params.module !== undefined ? sandbox.module(params.module) : undefined;
		if (params.module !== undefined && !module) throw new HttpError('INVALID_MODULE');
		const rawBody = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
		const ctx = makeCtx({
			sandbox,
			method,
			path: url.pathname,
			root,
			v: 'v2.1',
			params,
			module,
			query: url.searchParams,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			rawBody,
			files: [],
			formFields: {},
			contentType: body === undefined ? undefined : 'application/json',
		});
		const reply = await sandbox.router.dispatch(ctx, route);
		return { status: reply.status ?? 200, body: reply.body ?? {} };
	} catch (error) {
		if (error instanceof HttpError) return { status: error.status, body: error.toBody() };
		throw error;
	}
}

/** The item of a write answer (`data[0]`, or the error body of a refused call). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function firstItem(answer: ApiAnswer): any {
	return Array.isArray(answer.body?.data) ? answer.body.data[0] : answer.body;
}
