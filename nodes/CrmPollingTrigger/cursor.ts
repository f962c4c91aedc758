import type { IDataObject } from 'n8n-workflow';

/**
 * What the CRM Polling Trigger keeps in the workflow's static data ('node'), so that n8n saves it
 * with the poll (and, with durable poll cursors, commits it in the transaction that stores the
 * execution). README "CRM Polling Trigger" lists what is kept and how much.
 */
export interface PollState extends IDataObject {
	/** one cursor per module and time field: `Leads|Modified_Time`, `Leads|Created_Time`, `Leads|deleted` */
	streams?: Record<string, StreamCursor>;
	/** "Only When These Fields Change": per module, the watched fields' last seen values of recent records */
	values?: Record<string, Record<string, IDataObject>>;
}

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

/** Records whose watched values are kept per module (most recently changed first out of the list last). */
export const VALUES_PER_MODULE = 1000;

export const changeKeyOf = (id: string, time: number) => `${id}|${time}`;
const timeOfKey = (key: string) => Number(key.slice(key.lastIndexOf('|') + 1));

/** The stream's cursor moved to `time`: keys before it are no longer needed (the next read starts at `time`). */
export function advance(cursor: StreamCursor, time: number, keys: Iterable<string>): StreamCursor {
	const next = Math.max(cursor.time, time);
	const seen = new Set([...cursor.seen, ...keys].filter((key) => timeOfKey(key) >= next));
	return { time: next, seen: [...seen] };
}

/** Keeps `values` of one record, newest last, at most VALUES_PER_MODULE per module. */
export function remember(
	state: PollState,
	module: string,
	id: string,
	values: IDataObject | undefined,
): void {
	state.values ??= {};
	const ofModule = (state.values[module] ??= {});
	// a prefix keeps insertion order (digit-only keys would be ordered numerically)
	const key = `r${id}`;
	delete ofModule[key];
	if (values === undefined) return;
	ofModule[key] = values;
	const keys = Object.keys(ofModule);
	for (const old of keys.slice(0, Math.max(0, keys.length - VALUES_PER_MODULE)))
		delete ofModule[old];
}

export function recalled(state: PollState, module: string, id: string): IDataObject | undefined {
	return state.values?.[module]?.[`r${id}`];
}
