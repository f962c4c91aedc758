// Writes of a wrapper list (`{ "<listKey>": [items] }`), answered with one result per item under
// the same key (docs/protocol.md §3.8).
import type { IDataObject } from 'n8n-workflow';

import type { CrmContext, CrmRequest } from './transport';
import { crmItemResults } from './transport';

/** Sends `items` as the body's `listKey` list; answers the result items of the response. */
export async function sendItemList(
	this: CrmContext,
	request: Omit<CrmRequest, 'body' | 'itemListKey'>,
	listKey: string,
	items: IDataObject[],
): Promise<IDataObject[]> {
	return await crmItemResults.call(this, { ...request, body: { [listKey]: items }, itemListKey: listKey });
}
