// Request and response conventions every group shares: wrapper lists and their bounds (§3.1),
// paging parameters and `info` (§3.6), If-Modified-Since and empty reads (§3.7).
import { HttpError } from './errors.ts';
import type { Ctx, Reply } from './router.ts';
import type { Json } from './store.ts';
import { parseImsHeader } from './time.ts';

/** The error-details key naming a parameter: `param_name` in v2.1, `param` in v2 (docs/protocol.md §13). */
export function paramKey(ctx: Pick<Ctx, 'v'>): 'param_name' | 'param' {
	return ctx.v === 'v2.1' ? 'param_name' : 'param';
}

/** Reads the body's wrapper list `key` with bounds [min..max]; throws the §3.1 errors. */
export function wrapperList(ctx: Ctx, key: string, max: number, min = 1): unknown[] {
	const body = ctx.json();
	const list = body[key];
	if (list === undefined || list === null) throw HttpError.mandatory(key);
	if (!Array.isArray(list))
		throw HttpError.invalidData({ api_name: key, expected_data_type: 'jsonarray' });
	if (list.length < min) throw HttpError.mandatory(key);
	if (list.length > max) throw HttpError.limit(max, key);
	return list;
}

export interface Paging {
	page: number;
	perPage: number;
	offset: number;
}

/** `page` (≥1) and `per_page` (1..200) with the §3.6 errors; never clamped. */
export function paging(ctx: Ctx, maxPerPage = 200): Paging {
	const read = (name: string, fallback: number, max: number) => {
		const raw = ctx.q(name);
		if (raw === undefined) return fallback;
		const n = Number(raw);
		if (!Number.isInteger(n) || n < 1 || n > max) {
			throw HttpError.invalidData({ [paramKey(ctx)]: name }, `invalid value for ${name}`);
		}
		return n;
	};
	const page = read('page', 1, Number.MAX_SAFE_INTEGER);
	const perPage = read('per_page', maxPerPage, maxPerPage);
	return { page, perPage, offset: (page - 1) * perPage };
}

export function info(p: Paging, count: number, more: boolean, extra: Json = {}): Json {
	return { per_page: p.perPage, count, page: p.page, more_records: more, ...extra };
}

/** A paged list reply: 204 when empty (§3.7). `items` holds up to perPage + 1 entries. */
export function pagedReply(key: string, p: Paging, items: unknown[], extraInfo: Json = {}): Reply {
	const more = items.length > p.perPage;
	const page = more ? items.slice(0, p.perPage) : items;
	if (page.length === 0) return { status: 204 };
	return { body: { [key]: page, info: info(p, page.length, more, extraInfo) } };
}

/** Pages an in-memory list. */
export function pageOf<T>(all: T[], p: Paging): T[] {
	return all.slice(p.offset, p.offset + p.perPage + 1);
}

/** The first page at the default size: the `info` of lists the service answers whole. */
export const FIRST_PAGE: Paging = { page: 1, perPage: 200, offset: 0 };

/**
 * A page of a record's child list (related records, notes, attachments, …): with `changed`, an
 * If-Modified-Since keeps the entries changed after it (304 when there are entries but none
 * changed); then `sort`, the §3.6 page, and `map`; 204 when the page is empty.
 */
export function childPage<T>(
	ctx: Ctx,
	p: Paging,
	key: string,
	all: T[],
	o: { map: (entry: T) => unknown; changed?: (entry: T) => number; sort?: (a: T, b: T) => number },
): Reply {
	let entries = all;
	const since = o.changed ? ifModifiedSince(ctx) : undefined;
	if (since !== undefined) {
		entries = all.filter((e) => o.changed!(e) > since);
		if (all.length > 0 && entries.length === 0) return { status: 304 };
	}
	if (o.sort) entries = [...entries].sort(o.sort);
	return pagedReply(key, p, pageOf(entries, p).map(o.map));
}

/** If-Modified-Since as epoch ms, or undefined. */
export function ifModifiedSince(ctx: Ctx): number | undefined {
	return parseImsHeader(ctx.header('if-modified-since'));
}

/** A list reply of a non-paged read: 204 when empty. */
export function listReply(key: string, items: unknown[], extra: Json = {}): Reply {
	if (items.length === 0) return { status: 204 };
	return { body: { [key]: items, ...extra } };
}

/** `ids` query parameter (comma-joined) with its bound; REQUIRED_PARAM_MISSING when required and absent. */
export function idsParam(
	ctx: Ctx,
	name: string,
	max: number,
	required: boolean,
): string[] | undefined {
	const ids = ctx.list(name);
	if (ids.length === 0) {
		if (required) throw HttpError.requiredParam(name, ctx.v);
		return undefined;
	}
	if (ids.length > max) throw HttpError.limit(max, name);
	for (const id of ids) {
		if (!/^\d+$/.test(id)) throw HttpError.invalidData({ [paramKey(ctx)]: name, id });
	}
	return ids;
}

/** A required query parameter. */
export function requiredQuery(ctx: Ctx, name: string): string {
	const value = ctx.q(name);
	if (value === undefined) throw HttpError.requiredParam(name, ctx.v);
	return value;
}
