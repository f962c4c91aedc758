import type { IDataObject, IRun, ITriggerFunctions } from 'n8n-workflow';

import { toUtcWireTime } from '../shared/formats/dates';
import {
	advance,
	changeKeyOf,
	changesStart,
	crmTime,
	deletedSince,
	deletedStart,
	keysetPage,
	newest,
} from '../shared/changes/changeStream';
import type { StreamCursor } from '../shared/changes/changeStream';
import { CHANGE_KEY, CHANGE_TIME, changeBase } from './delivery';

/**
 * The catch-up (docs/crm-trigger.md "Catch-up"): the CRM sends a delivery once, and a delivery no
 * n8n process answered is gone. So the trigger also reads the watched modules' changes since the
 * last ones it read, on the CRM's own clock, with the keyset walk of the CRM Polling Trigger, and
 * emits each as the delivery would have: same item, same key. execute() drops what a delivery
 * already brought (n8n's deduplication store), so only what no delivery brought runs.
 */

/** Changes younger than this are left to their deliveries (read at the next catch-up). */
export const SETTLE_MS = 60_000;
/** Changes one execution of the catch-up carries at most; a catch-up emits as many as it needs. */
export const CATCH_UP_BATCH = 1000;
/** How long one catch-up may read before it leaves the rest to the next one. */
export const CATCH_UP_BUDGET_MS = 40_000;
/**
 * How long the catch-up waits for n8n to report that an execution it emitted has run before a
 * catch-up tick gives the wait up: far longer than a burst keeps an execution in n8n's queue.
 */
export const STALLED_MS = 10 * 60_000;

/**
 * The catch-up's waits for the executions it emits. n8n resolves an emit's promise once the
 * execution has run; a main that lost track of it (seen after a `kill -9` of main, while a second
 * main claimed the leader role) never does, and the catch-up, one at a time, would stall behind it
 * until main restarts, closing included. A given-up wait leaves the cursor where it was, so the next
 * catch-up reads those changes again, and execute() drops what the lost execution emitted after all.
 */
export function emitWaits() {
	let current: { since: number; giveUp: () => void } | undefined;
	let closed = false;
	return {
		/** Whether `run` settled (a failed run throws, as before); false when the wait was given up. */
		async wait(run: Promise<unknown>): Promise<boolean> {
			if (closed) return false;
			let giveUp = () => {};
			const givenUp = new Promise<false>((resolve) => (giveUp = () => resolve(false)));
			current = { since: Date.now(), giveUp };
			try {
				return await Promise.race([run.then(() => true), givenUp]);
			} finally {
				current = undefined;
			}
		},
		/** Gives up the wait under way once it has lasted `ms`. */
		giveUpAfter(ms: number): void {
			if (current && Date.now() - current.since >= ms) current.giveUp();
		},
		/** The trigger closes: no wait holds it up, now or later. */
		close(): void {
			closed = true;
			current?.giveUp();
		},
	};
}

/** Whether n8n reports the execution failed: its trigger may not have emitted every change. */
export function failed(run: IRun | undefined): boolean {
	return run?.status === 'error' || run?.data?.resultData?.error !== undefined;
}

/** What the catch-up keeps in the node's static data: one cursor per module and stream. */
export interface CatchUpState extends IDataObject {
	/** `Deals|Created_Time` (creates), `Deals|Modified_Time` (edits), `Deals|deleted` (deletes) */
	catchUp?: Record<string, StreamCursor>;
}

type Operation = 'create' | 'edit' | 'delete';
const TIME_FIELD = { create: 'Created_Time', edit: 'Modified_Time' } as const;
const streamOf = (module: string, operation: Operation) =>
	`${module}|${operation === 'delete' ? 'deleted' : TIME_FIELD[operation]}`;

/** The streams the node's modules and events need, each with its module and event. */
export function streamsFor(
	modules: string[],
	events: string[],
): Array<{ module: string; operation: Operation; stream: string }> {
	const all = events.includes('all');
	const operations = (['create', 'edit', 'delete'] as const).filter(
		(op) => all || events.includes(op),
	);
	return modules.flatMap((module) =>
		operations.map((operation) => ({ module, operation, stream: streamOf(module, operation) })),
	);
}

/**
 * Starts every stream that has no cursor yet at the module's latest change (nothing before it is
 * emitted), and drops cursors of streams the node no longer watches.
 */
export async function startStreams(
	this: ITriggerFunctions,
	state: CatchUpState,
	streams: ReturnType<typeof streamsFor>,
): Promise<void> {
	const kept: Record<string, StreamCursor> = {};
	for (const { module, operation, stream } of streams) {
		const existing = state.catchUp?.[stream];
		if (existing) kept[stream] = existing;
		else if (operation === 'delete') {
			// on the CRM's clock: deletions after the module's latest change are the new ones
			const latest = await newest.call(this, module, 'Modified_Time', '');
			kept[stream] = await deletedStart.call(this, module, latest?.time ?? Date.now());
		} else {
			const field = TIME_FIELD[operation];
			kept[stream] = await changesStart.call(
				this,
				module,
				field,
				await newest.call(this, module, field, ''),
			);
		}
	}
	state.catchUp = kept;
}

/** One change read by the catch-up, as an item of the trigger. */
function itemOf(module: string, operation: Operation, id: string, time: number): IDataObject {
	return {
		module,
		operation,
		id,
		server_time: new Date(time).toISOString(),
		caught_up: true,
		[CHANGE_KEY]: changeBase(module, operation, id),
		...(operation === 'edit' ? { [CHANGE_TIME]: new Date(time).toISOString() } : {}),
	};
}

/**
 * The next changes of one stream after its cursor and no later than `bound`: at most `limit`,
 * oldest first. Answers the items and the cursor after them (the stored one is not touched).
 */
export async function readStream(
	this: ITriggerFunctions,
	module: string,
	operation: Operation,
	cursor: StreamCursor,
	bound: number,
	limit: number,
): Promise<{ items: IDataObject[]; cursor: StreamCursor; more: boolean }> {
	if (operation === 'delete') return await readDeleted.call(this, module, cursor, bound, limit);
	const field = TIME_FIELD[operation];
	const seen = new Set(cursor.seen);
	const items: IDataObject[] = [];
	let position: { time: number; id?: string } = { time: cursor.time, id: cursor.id };
	let next: StreamCursor = { time: cursor.time, seen: cursor.seen };
	const upTo = `${field} <= '${toUtcWireTime(bound)}'`;
	for (;;) {
		const page = await keysetPage.call(this, module, field, upTo, position);
		const keys: string[] = [];
		let full = false;
		for (const row of page.rows) {
			if (items.length >= limit) {
				full = true;
				break;
			}
			position = { time: row.time, id: row.id };
			const key = changeKeyOf(row.id, row.time);
			keys.push(key);
			if (seen.has(key)) continue;
			seen.add(key);
			// a record never edited since its creation is a create, not an edit
			if (operation === 'edit' && row.created === row.time) continue;
			items.push(itemOf(module, operation, row.id, row.time));
		}
		if (keys.length > 0) next = advance(next, position.time, keys);
		if (!full && !page.more) return { items, cursor: next, more: false };
		if (full || items.length >= limit) {
			// the next read starts right after the last row taken
			if (position.id !== undefined) next.id = position.id;
			return { items, cursor: next, more: true };
		}
	}
}

/** Deleted records after the cursor and no later than `bound` (GetDeletedRecords, every page). */
async function readDeleted(
	this: ITriggerFunctions,
	module: string,
	cursor: StreamCursor,
	bound: number,
	limit: number,
): Promise<{ items: IDataObject[]; cursor: StreamCursor; more: boolean }> {
	// If-Modified-Since answers what is strictly after it: one second before reads the cursor's second again
	const entries = await deletedSince.call(this, module, cursor.time - 1000);
	const rows = entries
		.map((entry) => ({ id: String(entry.id), time: crmTime(entry.deleted_time) }))
		.filter((row) => Number.isFinite(row.time) && row.time >= cursor.time && row.time <= bound)
		.sort((a, b) => a.time - b.time || a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
	const seen = new Set(cursor.seen);
	const items: IDataObject[] = [];
	let next = cursor;
	for (const row of rows) {
		const key = changeKeyOf(row.id, row.time);
		if (seen.has(key)) continue;
		if (items.length >= limit) return { items, cursor: next, more: true };
		seen.add(key);
		next = advance(next, row.time, [key]);
		items.push(itemOf(module, 'delete', row.id, row.time));
	}
	return { items, cursor: next, more: false };
}
