// A module's changes in the CRM's own time, read the same way by the CRM Polling Trigger (its polls)
// and the CRM Trigger (its catch-up): a cursor per stream (module + time field, or its deletions),
// keyset pages on (time, id) in COQL, and the CRM's list of deleted records (docs/protocol.md §3.13,
// §5.1).
import type { IDataObject } from 'n8n-workflow';

import { toUtcWireTime } from '../formats/dates';
import { crmRequest, crmRequestAllItems } from '../transport';
import type { CrmContext } from '../transport';

/** COQL answers at most 200 rows per query (docs/protocol.md §3.13); so do list pages (§3.6). */
export const PAGE_SIZE = 200;

/**
 * A position in one module's changes, on the CRM's own time (whole seconds, epoch ms here) plus
 * the keys (`id|time`) already emitted at that second or later: the next poll reads that second
 * again and skips them, so a change made later in the same second is neither lost nor repeated.
 */
export interface StreamCursor extends IDataObject {
	time: number;
	seen: string[];
	/** set when the last poll stopped on its time budget: the id of the last row it read at `time` */
	id?: string;
	/** the Start From this stream began at, if any (a different one starts it again) */
	from?: number;
}

export const changeKeyOf = (id: string, time: number) => `${id}|${time}`;
const timeOfKey = (key: string) => Number(key.slice(key.lastIndexOf('|') + 1));

/** The stream's cursor moved to `time`: keys before it are no longer needed (the next read starts at `time`). */
export function advance(cursor: StreamCursor, time: number, keys: Iterable<string>): StreamCursor {
	const next = Math.max(cursor.time, time);
	const seen = new Set([...cursor.seen, ...keys].filter((key) => timeOfKey(key) >= next));
	return { time: next, seen: [...seen] };
}

/** A CRM DateTime (§4) as epoch ms, whole seconds; NaN when it is none. */
export const crmTime = (value: unknown) =>
	Math.floor(Date.parse(String(value ?? '')) / 1000) * 1000;

/** A COQL string literal (single quotes doubled). */
export const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
const when = (ms: number) => quote(toUtcWireTime(ms));

export interface Row {
	id: string;
	time: number;
	created: number;
}

/** One keyset page: rows after (time, id), or from `time` on when no id is given, oldest first. */
export async function keysetPage(
	this: CrmContext,
	module: string,
	timeField: string,
	filter: string,
	after: { time: number; id?: string },
): Promise<{ rows: Row[]; more: boolean }> {
	const position =
		after.id === undefined
			? `${timeField} >= ${when(after.time)}`
			: `(${timeField} > ${when(after.time)} or (${timeField} = ${when(after.time)} and id > ${quote(after.id)}))`;
	const where = filter ? `(${position} and ${filter})` : position;
	const body = await crmRequest(this, {
		method: 'POST',
		path: '/coql',
		body: {
			select_query: `SELECT id, Created_Time, Modified_Time FROM ${module} WHERE ${where} ORDER BY ${timeField} ASC, id ASC LIMIT ${PAGE_SIZE}`,
		},
		// a read: safe to send again after a 5xx or a lost connection
		idempotent: true,
	});
	const data = (body.data as IDataObject[] | undefined) ?? [];
	return {
		rows: data.map((r) => ({
			id: String(r.id),
			time: crmTime(r[timeField]),
			created: crmTime(r.Created_Time),
		})),
		more: (body.info as IDataObject | undefined)?.more_records === true,
	};
}

/** The newest row of a module on `timeField` (filtered), or undefined for none. */
export async function newest(
	this: CrmContext,
	module: string,
	timeField: string,
	filter: string,
): Promise<Row | undefined> {
	const position = `${timeField} is not null`;
	const where = filter ? `(${position} and ${filter})` : position;
	const body = await crmRequest(this, {
		method: 'POST',
		path: '/coql',
		body: {
			select_query: `SELECT id, Created_Time, Modified_Time FROM ${module} WHERE ${where} ORDER BY ${timeField} DESC, id DESC LIMIT 1`,
		},
		idempotent: true,
	});
	const row = ((body.data as IDataObject[] | undefined) ?? [])[0];
	return row
		? { id: String(row.id), time: crmTime(row[timeField]), created: crmTime(row.Created_Time) }
		: undefined;
}

/**
 * Where a new created/modified stream starts: after the module's latest change, with every change of
 * that same second counted as seen (bulk writes stamp many records with one second), none emitted.
 */
export async function changesStart(
	this: CrmContext,
	module: string,
	timeField: string,
	latest: Row | undefined,
): Promise<StreamCursor> {
	if (!latest) return { time: 0, seen: [] };
	const seen: string[] = [];
	let position: { time: number; id?: string } = { time: latest.time };
	for (;;) {
		const page = await keysetPage.call(
			this,
			module,
			timeField,
			`${timeField} = ${when(latest.time)}`,
			position,
		);
		seen.push(...page.rows.map((row) => changeKeyOf(row.id, row.time)));
		const last = page.rows[page.rows.length - 1];
		if (!page.more || !last) break;
		position = { time: last.time, id: last.id };
	}
	return {
		time: latest.time,
		seen: seen.length > 0 ? seen : [changeKeyOf(latest.id, latest.time)],
	};
}

/** GetDeletedRecords entries after `since` (If-Modified-Since, whole seconds): every page, or the first `limit`. */
export async function deletedSince(
	this: CrmContext,
	module: string,
	sinceMs: number | undefined,
	limit = 0,
): Promise<IDataObject[]> {
	return await crmRequestAllItems(
		this,
		{
			path: `/${encodeURIComponent(module)}/deleted`,
			rootProperty: 'data',
			qs: { type: 'all' },
			// no lower bound for a stream starting at the beginning (an empty module at activation)
			headers:
				sinceMs === undefined || sinceMs <= 0
					? {}
					: { 'If-Modified-Since': toUtcWireTime(sinceMs) },
		},
		limit,
	);
}

/** Where a new deleted-records stream starts: after every deletion listed since `since` (none emitted). */
export async function deletedStart(
	this: CrmContext,
	module: string,
	since: number,
): Promise<StreamCursor> {
	const entries = await deletedSince.call(this, module, since - 1000);
	let cursor: StreamCursor = { time: since, seen: [] };
	for (const entry of entries) {
		const time = crmTime(entry.deleted_time);
		if (Number.isFinite(time))
			cursor = advance(cursor, time, [changeKeyOf(String(entry.id), time)]);
	}
	return cursor;
}
