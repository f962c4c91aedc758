import type { IDataObject } from 'n8n-workflow';

export interface Page {
	items: IDataObject[];
	more: boolean;
}

/**
 * Splits a response body into its items (docs/protocol.md §3.5, §3.6): the list (or the one object)
 * under `rootProperty`, the operation's declared wrapper key, plus `info.more_records`. A body
 * without that key is itself one item (bare bodies, results a postReceive hook already unwrapped);
 * an empty body (204) or an empty object has none.
 */
export function unwrapBody(body: unknown, rootProperty?: string): Page {
	if (body === undefined || body === null || body === '') return { items: [], more: false };
	if (Array.isArray(body)) return { items: body as IDataObject[], more: false };
	if (typeof body !== 'object') return { items: [{ value: body } as IDataObject], more: false };
	const obj = body as IDataObject;
	const info = obj.info as IDataObject | undefined;
	const more = info?.more_records === true;
	const value = rootProperty === undefined ? undefined : obj[rootProperty];
	if (Array.isArray(value)) return { items: value as IDataObject[], more };
	if (value && typeof value === 'object') return { items: [value as IDataObject], more };
	return { items: Object.keys(obj).length ? [obj] : [], more };
}

/** Output shape of a write result item: the id first, then the envelope. */
export function writeResult(item: IDataObject): IDataObject {
	const details = (item.details ?? {}) as IDataObject;
	return { id: details.id, ...item };
}
