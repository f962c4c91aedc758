import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyOptions,
	INodePropertyRouting,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { pickedValue } from '../description/properties';

import { crmApiError, isErrorItem, responseOfError } from './errors';
import { unwrapBody } from './envelope';
import { MAX_PER_PAGE } from './pagination';
import { retryWait, toCrmError } from './request';
import { getParameter } from '../parameters';

type RequestData = DeclarativeRestApiSettings.ResultOptions;

/**
 * How a routed operation pages. The runner calls `prepare` before each call (`call` from 0, `read`
 * items so far); it sets the call's request and answers false when no call is due. After a call the
 * runner goes on while the body says `info.more_records`, the page had items and `limit` is not
 * reached.
 */
export interface Pager {
	/** most items to return; 0 = all */
	limit: number;
	prepare(call: number, read: number): boolean;
	/** makes a failed call's error readable (e.g. COQL positions); defaults to the CRM error as is */
	describeError?(error: NodeApiError): NodeApiError;
}

export type PagerFactory = (this: IExecutePaginationFunctions, requestData: RequestData) => Pager;

/**
 * The default paging (docs/protocol.md §3.6): with "Return All" or a "Limit", `page`/`per_page`
 * (≤ 200) from the request's own `page`; otherwise one call.
 */
const pageParameters: PagerFactory = function (requestData) {
	const itemIndex = this.getItemIndex();
	const returnAll = getParameter(this, 'returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? 0 : Number(getParameter(this, 'limit', itemIndex, 0)) || 0;
	const paged = returnAll || limit > 0;
	const baseQs = { ...(requestData.options.qs ?? {}) } as IDataObject;
	const perPage = Math.min(MAX_PER_PAGE, limit || MAX_PER_PAGE);
	const first = Number(baseQs.page ?? 1);
	return {
		limit,
		prepare(call) {
			if (!paged) return call === 0;
			requestData.options.qs = { ...baseQs, page: first + call, per_page: perPage };
			return true;
		},
	};
};

/** Names what a Get by ID did not find, from the node's parameters: e.g. "No Leads record with ID 123". */
export type NotFound = (this: IExecuteSingleFunctions) => string;

/** "No <thing> with ID <value>", the value read from the parameter `idParameter`. */
export function noneWithId(thing: string, idParameter: string): NotFound {
	return function (this: IExecuteSingleFunctions) {
		return `No ${thing} with ID ${pickedValue(this, idParameter)}`;
	};
}

/** The `onNotFound` value that turns a missing ID into no output instead of an error. */
export const RETURN_NOTHING = 'returnNothing';

/** What the runner does with a routed operation's answers (declared in its operation file, crmRouting). */
export interface Route {
	/** wrapper key of the items in the body (`data`, `users`, `watch`, …); absent: the body is the item */
	rootProperty?: string;
	/** Get by ID: a missing ID is an error with this message (or no output, see `onNotFound`) */
	notFound?: NotFound;
	/** paging of its own; default pageParameters */
	paging?: PagerFactory;
}

/**
 * The routing of a routed operation, as its operation file writes it: n8n builds the request from
 * `routing` (and the parameters' `routing.send`), and `send.paginate` hands it to the operation's own
 * `operations.pagination`, the request runner below bound to `route`, which sends, retries, pages,
 * unwraps and checks it (docs/contributing.md "The request path").
 */
export function crmRouting(routing: INodePropertyRouting, route: Route = {}): INodePropertyRouting {
	return {
		...routing,
		send: { ...routing.send, paginate: true },
		operations: { pagination: crmRequestRunner(route) },
	};
}

/**
 * Errors that mean the ID of a Get does not exist (docs/protocol.md §3.7, §5): 404
 * RESOURCE_NOT_FOUND (bulk jobs) and 400 INVALID_DATA / ENTITY_ID_INVALID naming the `id` (settings
 * entities). A 204 or an empty list means the same and is told by having no items.
 */
function isMissingId(error: NodeApiError): boolean {
	const crm = error.context?.crm as { code?: string; details?: IDataObject } | undefined;
	if (!crm?.code) return false;
	if (crm.code === 'RESOURCE_NOT_FOUND') return true;
	return (
		(crm.code === 'INVALID_DATA' || crm.code === 'ENTITY_ID_INVALID') &&
		crm.details?.id !== undefined &&
		crm.details.api_name === undefined
	);
}

/**
 * The request runner of a routed (declarative) operation: n8n's `operations.pagination` of the
 * operation's routing, bound to the operation's route by crmRouting. It is the one place where a
 * routed request is
 *  - sent and retried (docs/protocol.md §7, retryWait): n8n's makeRoutingRequest, which signs
 *    the request (OAuth2) and runs the operation's postReceive hooks;
 *  - paged: the route's Pager (default `page`/`per_page` while `info.more_records`, §3.6; COQL
 *    LIMIT/OFFSET, §3.13);
 *  - unwrapped: by the operation's declared root property (§3.5);
 *  - checked: error items in a 2xx body (§11.2) and request errors (§11.1) become NodeApiErrors
 *    (errors.ts); a 304 (§3.7) is no items; a Get whose ID does not exist fails with "No … with ID …"
 *    unless its "On Not Found" says Return Nothing.
 * Custom operations (the `execute` of an operation file) do not come here: they call crmRequest /
 * runBatched themselves, with the same retry and error mapping.
 */
function crmRequestRunner(route: Route) {
	const runner = async function crmRequestRunner(
		this: IExecutePaginationFunctions,
		requestData: RequestData,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		const pager = (route.paging ?? pageParameters).call(this, requestData);
		const method = String(requestData.options.method ?? 'GET');
		const output: INodeExecutionData[] = [];
		let notModified = false;

		for (let call = 0; pager.prepare(call, output.length); call++) {
			let response: INodeExecutionData[] | undefined;
			let failure: unknown;
			for (let attempt = 0; response === undefined; attempt++) {
				try {
					response = await this.makeRoutingRequest(requestData);
				} catch (error) {
					const wait = retryWait(error, attempt, method);
					if (wait === undefined) {
						failure = error;
						break;
					}
					await sleep(wait);
				}
			}
			if (response === undefined) {
				// If-Modified-Since and nothing changed (§3.7): no items, not an error
				if (responseOfError(failure).status === 304) {
					notModified = true;
					break;
				}
				const crmError = toCrmError(this, failure);
				if (!(crmError instanceof NodeApiError)) throw crmError;
				if (route.notFound && isMissingId(crmError)) return notFound.call(this, route.notFound);
				throw pager.describeError ? pager.describeError(crmError) : crmError;
			}
			// binary downloads pass through untouched
			if (response.some((item) => item.binary)) {
				return response.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
			}
			let more = false;
			let received = 0;
			for (const item of response) {
				const page = unwrapBody(item.json, route.rootProperty);
				more = more || page.more;
				for (const json of page.items) {
					if (isErrorItem(json)) throw crmApiError(this.getNode(), json);
					// routing runs once per input item: pair every result with it
					output.push({ json, pairedItem: { item: itemIndex } });
					received++;
				}
			}
			if (!more || received === 0 || (pager.limit > 0 && output.length >= pager.limit)) break;
		}
		if (route.notFound && output.length === 0 && !notModified)
			return notFound.call(this, route.notFound);
		return pager.limit > 0 ? output.slice(0, pager.limit) : output;
	};
	// the route stays readable on the runner: routeOf
	return Object.assign(runner, { route });
}

/**
 * The route an operation's option gives its runner (crmRouting), or undefined when the option is not
 * routed through one: defineResource adds "On Not Found" to a route with `notFound`.
 */
export function routeOf(option: INodePropertyOptions): Route | undefined {
	const runner: unknown = option.routing?.operations?.pagination;
	return option.routing?.send?.paginate === true && typeof runner === 'function'
		? (runner as { route?: Route }).route
		: undefined;
}

/** A Get found nothing: no items with "On Not Found" = Return Nothing, else a 404 error naming the ID. */
function notFound(this: IExecutePaginationFunctions, message: NotFound): INodeExecutionData[] {
	const itemIndex = this.getItemIndex();
	if (getParameter(this, 'onNotFound', itemIndex, 'error') === RETURN_NOTHING) return [];
	const text = message.call(this);
	throw new NodeApiError(this.getNode(), { message: text } as JsonObject, {
		message: text,
		description: 'Check the ID, or set "On Not Found" to "Return Nothing" to go on without output.',
		httpCode: '404',
		itemIndex,
	});
}

/**
 * A preSend that sets the request body from the item's parameters: `build` reads and checks them
 * (a NodeOperationError fails the item before anything is sent) and answers the body.
 */
export function bodyPreSend(
	build: (this: IExecuteSingleFunctions, itemIndex: number) => IDataObject | Promise<IDataObject>,
) {
	return async function (
		this: IExecuteSingleFunctions,
		request: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		request.body = await build.call(this, this.getItemIndex());
		return request;
	};
}
