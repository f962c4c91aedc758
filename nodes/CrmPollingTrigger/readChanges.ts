import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toCrmDateTime } from '../shared/formats/dates';
import { fetchRecords } from '../shared/records/fetch';
import { MAX_CRITERIA_CONDITIONS } from '../shared/description/collections';
import {
	advance,
	changeKeyOf,
	crmTime,
	deletedSince,
	keysetPage,
	PAGE_SIZE,
	quote,
} from '../shared/changes/changeStream';
import type { Row, StreamCursor } from '../shared/changes/changeStream';
import { recalled, remember } from './cursor';
import type { PollState } from './cursor';

export type PollEvent = 'created' | 'updated' | 'createdOrUpdated' | 'deleted' | 'any';

export interface Condition {
	field: string;
	operator: string;
	value: unknown;
}

export interface WalkSettings {
	event: PollEvent;
	/** COQL condition of the filter, or '' */
	filter: string;
	/** fields to return ([] = all) */
	fields: string[];
	/** "Only When These Fields Change" ([] = any change) */
	watch: string[];
	/** Date.now() after which no further page is read */
	deadline: number;
}

/** One change the poll emits, with the CRM time it is ordered by. */
export interface Change {
	time: number;
	module: string;
	id: string;
	json: IDataObject;
}

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)?$/;

/** COQL nests more than two conditions pairwise: `(A and (B and C))` (§3.13). */
function nest(parts: string[], op: 'and' | 'or'): string {
	if (parts.length === 1) return parts[0];
	return `(${parts[0]} ${op} ${nest(parts.slice(1), op)})`;
}

const COQL_OPERATORS: Record<string, string> = {
	equals: '=',
	not_equal: '!=',
	greater_than: '>',
	greater_equal: '>=',
	less_than: '<',
	less_equal: '<=',
};

/**
 * The Search criteria builder's conditions as one COQL condition (values quoted, date-times in the
 * contract's form). Checked before any request: field names, operators, at most 10 conditions.
 */
export function filterCondition(
	ctx: IPollFunctions,
	conditions: Condition[],
	combine: 'and' | 'or',
): string {
	const used = conditions.filter((c) => String(c.field ?? '').trim() !== '');
	if (used.length > MAX_CRITERIA_CONDITIONS) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Filter has ${used.length} conditions; at most ${MAX_CRITERIA_CONDITIONS} are allowed`,
		);
	}
	const parts = used.map((c, index) => {
		const field = String(c.field).trim();
		if (!FIELD_NAME.test(field)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Filter condition ${index + 1}: "${field}" is not a field API name`,
			);
		}
		const text = typeof c.value === 'string' ? c.value.trim() : String(c.value ?? '');
		const value = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)
			? (toCrmDateTime(text) ?? text)
			: text;
		if (c.operator === 'starts_with') return `${field} like ${quote(`${value}%`)}`;
		const op = COQL_OPERATORS[c.operator];
		if (!op)
			throw new NodeOperationError(
				ctx.getNode(),
				`Filter condition ${index + 1}: unknown operator "${c.operator}"`,
			);
		return `${field} ${op} ${quote(value)}`;
	});
	return parts.length === 0 ? '' : nest(parts, combine);
}

/** Field names as the node's lists take them: trimmed, checked, without duplicates. */
export function fieldNames(ctx: IPollFunctions, names: unknown, parameter: string): string[] {
	const list = (Array.isArray(names) ? names : String(names ?? '').split(','))
		.map((n) => String(n).trim())
		.filter(Boolean);
	for (const name of list) {
		if (!FIELD_NAME.test(name))
			throw new NodeOperationError(
				ctx.getNode(),
				`${parameter}: "${name}" is not a field API name`,
			);
	}
	return [...new Set(list)];
}

/** The fields GetRecords is asked for: all (undefined), or the chosen ones plus what the node compares. */
function requestedFields(settings: WalkSettings): string | undefined {
	if (settings.fields.length === 0) return undefined;
	return [
		...new Set([...settings.fields, ...settings.watch, 'Created_Time', 'Modified_Time']),
	].join(',');
}

const pick = (record: IDataObject, names: string[]): IDataObject =>
	Object.fromEntries(names.map((n) => [n, record[n] ?? null]));
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Created or modified records of one module since the cursor, oldest first, by a keyset walk on
 * (time field, id): each page asks for the rows after the last one read, so records that change
 * while the walk goes on move behind it and are read later, never skipped (page numbers over a
 * changing set would skip them). Stops at the deadline with what it has; the cursor then points at
 * the last row read.
 */
export async function walkChanges(
	this: IPollFunctions,
	state: PollState,
	module: string,
	timeField: 'Created_Time' | 'Modified_Time',
	cursor: StreamCursor,
	settings: WalkSettings,
): Promise<{ changes: Change[]; cursor: StreamCursor; complete: boolean }> {
	const start = cursor;
	const seen = new Set(start.seen);
	const seenAtStart = new Set(start.seen);
	const changes: Change[] = [];
	// after a poll that stopped on its budget: right after the last row read; otherwise the whole
	// second of the cursor again (a change made later in that second is read, the seen ones skipped)
	let position: { time: number; id?: string } = { time: start.time, id: start.id };
	let current: StreamCursor = { time: start.time, seen: start.seen };
	let complete = false;
	for (;;) {
		const page = await keysetPage.call(this, module, timeField, settings.filter, position);
		const fresh = page.rows.filter((row) => !seen.has(changeKeyOf(row.id, row.time)));
		const records =
			fresh.length > 0
				? await fetchRecords.call(
						this,
						module,
						fresh.map((r) => r.id),
						requestedFields(settings),
					)
				: new Map<string, IDataObject>();
		const keys: string[] = [];
		for (const row of page.rows) {
			const key = changeKeyOf(row.id, row.time);
			keys.push(key);
			if (seen.has(key)) continue;
			seen.add(key);
			const record = records.get(row.id);
			// gone since the query: its deletion is a change of its own (Record Deleted)
			if (!record) continue;
			// changed again since the query: emitted now with what it holds, and that change is not emitted twice
			const fetchedTime = crmTime(record.Modified_Time);
			if (timeField === 'Modified_Time' && fetchedTime > row.time) {
				const later = changeKeyOf(row.id, fetchedTime);
				keys.push(later);
				seen.add(later);
			}
			const change = classify(
				state,
				module,
				row,
				record,
				start.time,
				seenAtStart,
				settings,
				timeField,
			);
			if (change) changes.push(change);
		}
		const last = page.rows[page.rows.length - 1];
		if (last) {
			position = { time: last.time, id: last.id };
			current = advance(current, last.time, keys);
		}
		if (!page.more) {
			complete = true;
			break;
		}
		if (Date.now() >= settings.deadline) break;
	}
	if (!complete && position.id !== undefined) current.id = position.id;
	return { changes, cursor: current, complete };
}

/** The item for one changed record, or undefined when the event or the watched fields leave it out. */
function classify(
	state: PollState,
	module: string,
	row: Row,
	record: IDataObject,
	startTime: number,
	seenAtStart: Set<string>,
	settings: WalkSettings,
	timeField: string,
): Change | undefined {
	const watched = settings.watch.length > 0 ? pick(record, settings.watch) : undefined;
	const previous = recalled(state, module, row.id);
	remember(state, module, row.id, watched);
	let event: 'created' | 'updated';
	if (timeField === 'Created_Time') event = 'created';
	else if (settings.event === 'updated') {
		// never edited since its creation: not an update (its values are kept for the next one)
		if (row.created === row.time) return undefined;
		event = 'updated';
	} else {
		// created after the cursor, or in its second without having been emitted then
		const createdAfter =
			row.created > startTime ||
			(row.created === startTime && !seenAtStart.has(changeKeyOf(row.id, row.created)));
		event = createdAfter ? 'created' : 'updated';
	}
	const json: IDataObject = { id: row.id, module, event, time: record[timeField] ?? null };
	if (event === 'updated' && watched) {
		if (previous) {
			const changed = settings.watch.filter((f) => !same(previous[f], watched[f]));
			if (changed.length === 0) return undefined;
			json.changed_fields = changed;
			json.previous = pick(previous, changed);
		} else {
			// not seen since activation (or no longer kept): what changed is unknown, so it is emitted
			json.changed_fields = null;
			json.previous = null;
		}
	}
	json.record =
		settings.fields.length > 0 ? { id: record.id, ...pick(record, settings.fields) } : record;
	return { time: row.time, module, id: row.id, json };
}

/**
 * Records deleted since the cursor. The contract lists deleted records by page number only, with
 * If-Modified-Since as the one filter on time; new deletions never remove older entries, so
 * reading every page of "deleted at or after the cursor's second" misses none (an entry that
 * moves to a later page while reading is read twice and skipped by its key). Emitted oldest first.
 */
export async function walkDeleted(
	this: IPollFunctions,
	state: PollState,
	module: string,
	cursor: StreamCursor,
): Promise<{ changes: Change[]; cursor: StreamCursor }> {
	// If-Modified-Since answers what is strictly after it: one second before the cursor reads its second again
	const entries = await deletedSince.call(this, module, cursor.time - 1000);
	const seen = new Set(cursor.seen);
	const changes: Change[] = [];
	const keys: string[] = [];
	let latest = cursor.time;
	for (const entry of entries) {
		const id = String(entry.id);
		const time = crmTime(entry.deleted_time);
		if (!Number.isFinite(time) || time < cursor.time) continue;
		const key = changeKeyOf(id, time);
		keys.push(key);
		latest = Math.max(latest, time);
		if (seen.has(key)) continue;
		seen.add(key);
		remember(state, module, id, undefined);
		changes.push({
			time,
			module,
			id,
			json: { id, module, event: 'deleted', time: entry.deleted_time ?? null, record: entry },
		});
	}
	return { changes: sortChanges(changes), cursor: advance(cursor, latest, keys) };
}

/** The latest deletion of a module (Fetch Test Event): first page only. */
export async function latestDeleted(
	this: IPollFunctions,
	module: string,
): Promise<Change | undefined> {
	const entries = await deletedSince.call(this, module, undefined, PAGE_SIZE);
	let best: Change | undefined;
	for (const entry of entries) {
		const time = crmTime(entry.deleted_time);
		if (!best || time > best.time)
			best = {
				time,
				module,
				id: String(entry.id),
				json: {
					id: String(entry.id),
					module,
					event: 'deleted',
					time: entry.deleted_time ?? null,
					record: entry,
				},
			};
	}
	return best;
}

/** Oldest first; ties by module and id, so the order is the same at every poll. */
export function sortChanges(changes: Change[]): Change[] {
	// ids are digit strings: shorter is smaller
	return changes.sort(
		(a, b) =>
			a.time - b.time ||
			a.module.localeCompare(b.module) ||
			a.id.length - b.id.length ||
			(a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
	);
}
