// Writes of a wrapper list (`{ "<listKey>": [items] }`), answered with one result per item under
// the same key (docs/protocol.md §3.8).
import type { IDataObject } from 'n8n-workflow';

import type { CrmListRequest, CrmRequest } from './request';

/** The request sending `items` as the body's `listKey` list, read back as the results under that key. */
export function itemListRequest(
	request: Omit<CrmRequest, 'body' | 'itemListKey'>,
	listKey: string,
	items: IDataObject[],
): CrmListRequest {
	return { ...request, body: { [listKey]: items }, itemListKey: listKey };
}
