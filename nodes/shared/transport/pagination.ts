import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { unwrapBody } from './envelope';
import { crmRequest } from './request';
import type { CrmContext, CrmRoot } from './request';

/**
 * Pages a list endpoint from code (load options, trigger, custom operations): `page`/`per_page`
 * until `info.more_records` is false or `limit` items were read (0 = all).
 */
export async function crmRequestAllItems(
	this: CrmContext,
	request: { method?: IHttpRequestMethods; path: string; root?: CrmRoot; qs?: IDataObject; headers?: IDataObject },
	limit = 0,
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const response = await crmRequest.call(this, {
			method: request.method ?? 'GET',
			path: request.path,
			root: request.root,
			headers: request.headers,
			qs: { ...request.qs, page, per_page: limit > 0 ? Math.min(200, limit) : 200 },
		});
		const { items: pageItems, more } = unwrapBody(response.body);
		items.push(...pageItems);
		if (!more || (limit > 0 && items.length >= limit)) break;
	}
	return limit > 0 ? items.slice(0, limit) : items;
}
