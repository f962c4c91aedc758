import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { crmApiError, isErrorItem, responseOfError } from './errors';
import { unwrapBody } from './envelope';
import { toCrmError, withRetry } from './request';

export const MAX_PER_PAGE = 200;

/**
 * Node-level request runner for declarative operations (`requestOperations.pagination`, switched on
 * for every operation through the resource selector's `send.paginate`). It is the one place where
 * routed requests are retried, unwrapped from their envelope, paged (`page`/`per_page` while
 * `info.more_records`), checked for per-item errors in 2xx bodies, and mapped to NodeApiErrors.
 */
export async function crmRequestRunner(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', false) as boolean;
	const limit = returnAll ? 0 : Number(this.getNodeParameter('limit', 0)) || 0;
	const paged = returnAll || limit > 0;
	const method = String(requestData.options.method ?? 'GET');
	const baseQs = { ...(requestData.options.qs ?? {}) } as IDataObject;
	const perPage = returnAll ? MAX_PER_PAGE : Math.min(MAX_PER_PAGE, limit || MAX_PER_PAGE);
	const output: INodeExecutionData[] = [];
	let page = Number(baseQs.page ?? 1);

	for (;;) {
		if (paged) requestData.options.qs = { ...baseQs, page, per_page: perPage };
		let response: INodeExecutionData[];
		try {
			response = await withRetry(method, async () => await this.makeRoutingRequest(requestData));
		} catch (error) {
			// If-Modified-Since and nothing changed (§3.7): no items, not an error
			if (responseOfError(error).status === 304) break;
			throw toCrmError(this, error);
		}
		// binary downloads and post-processed results pass through untouched
		if (response.some((item) => item.binary)) {
			return response.map((item) => ({ ...item, pairedItem: { item: this.getItemIndex() } }));
		}
		let more = false;
		for (const item of response) {
			const { items, more: hasMore } = unwrapBody(item.json);
			more = more || hasMore;
			for (const json of items) {
				if (isErrorItem(json)) throw crmApiError(this.getNode(), json);
				// routing runs once per input item: pair every result with it
				output.push({ json, pairedItem: { item: this.getItemIndex() } });
			}
		}
		if (!paged || !more || (limit > 0 && output.length >= limit)) break;
		page++;
	}
	return limit > 0 ? output.slice(0, limit) : output;
}
