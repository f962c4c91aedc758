import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { unwrapBody } from './envelope';
import { crmRequest } from './request';
import type { CrmContext, CrmRoot } from './request';

/** Items per page of the `page`/`per_page` lists (docs/protocol.md §3.6). */
export const MAX_PER_PAGE = 200;

/**
 * Pages a list endpoint from code (load options, trigger, custom operations): `page`/`per_page`
 * until `info.more_records` is false or `limit` items were read (0 = all). `rootProperty` is the
 * list's wrapper key (docs/protocol.md §3.5), as routed operations declare it.
 */
export async function crmRequestAllItems(
	ctx: CrmContext,
	request: {
		method?: IHttpRequestMethods;
		path: string;
		root?: CrmRoot;
		rootProperty: string;
		qs?: IDataObject;
		headers?: IDataObject;
	},
	limit = 0,
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const body = await crmRequest(ctx, {
			method: request.method ?? 'GET',
			path: request.path,
			root: request.root,
			headers: request.headers,
			qs: {
				...request.qs,
				page,
				per_page: limit > 0 ? Math.min(MAX_PER_PAGE, limit) : MAX_PER_PAGE,
			},
		});
		const { items: pageItems, more } = unwrapBody(body, request.rootProperty);
		items.push(...pageItems);
		if (!more || pageItems.length === 0 || (limit > 0 && items.length >= limit)) break;
	}
	return limit > 0 ? items.slice(0, limit) : items;
}

/**
 * A list endpoint read in one request (the settings and organisation lists, §5, and the pickers'
 * first pages): GET `path` and the items under `rootProperty`, none when the body has no such list.
 */
export async function crmRequestList<T = IDataObject>(
	ctx: CrmContext,
	path: string,
	rootProperty: string,
	qs?: IDataObject,
): Promise<T[]> {
	const body = await crmRequest(ctx, { method: 'GET', path, ...(qs ? { qs } : {}) });
	const items = body[rootProperty];
	return Array.isArray(items) ? (items as T[]) : [];
}
