import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * How the trigger keeps one CRM change to one workflow run (README "How the CRM Trigger delivers
 * each change once"). Two layers, each catching what the one before cannot see:
 *
 * 1. In webhook(), the process latch (latch.ts): a synchronous check-and-set of delivery and change
 *    keys (an edit's key holds the record's Modified_Time), so copies of a delivery, and re-sends
 *    of a change, that reach the same n8n process start one execution, also at the same moment.
 *    Process-local and forgotten on restart.
 * 2. In execute(), the first node of every production execution (on a worker in queue mode):
 *    n8n's deduplication store (`helpers.checkProcessedAndRecord`, table `processed_data`), written
 *    at once and shared by every n8n process: it catches copies and re-sends that reached another
 *    process, or this one after a restart.
 *
 * Workflow static data is no layer: n8n 2.40.7 drops what webhook() writes there whenever it starts
 * an execution and answers the request itself, and the trigger lets n8n answer (only then is an
 * acknowledged delivery safe in n8n's database and queue).
 */

/** How long a delivery or change key is remembered (at least the freshness window). */
export const DEFAULT_WINDOW_MS = 10 * 60 * 1000;

/** Entries n8n keeps per trigger node in `processed_data`: two per emitted change (key, key@execution). */
export const PROCESSED_MAX = 8000;

type Dedupe = Pick<IExecuteFunctions['helpers'], 'checkProcessedAndRecord'>;

/**
 * Claims change keys in n8n's deduplication store; answers the keys this execution may emit
 * (those no other execution recorded before). Each key is recorded with the execution's id too, so
 * that an execution n8n runs again from the start (same id) emits its changes again: n8n does so
 * only when the first attempt left no result (it replaces that attempt's run data), so emitting
 * again is what keeps the change. n8n 2.40.7 has no such path: queue jobs of a dead worker are not
 * retried, and resumed executions continue after the trigger. A re-run under a new id is a copy to
 * this store; the one n8n offers, Retry from the executions list (mode 'retry'), claims nothing
 * (execute()), since the user asked for that run again.
 *
 * The store is read-modify-write without a lock, so this is not an atomic test-and-set: two
 * executions whose claims overlap (both read before either writes) both emit, and a write based on
 * an older read drops the keys written in between, so a later re-send of those changes is emitted
 * again. It never drops a change no execution emitted: a key is present only if the execution that
 * wrote it found it new, and emitted it.
 */
export async function claimChanges(
	helpers: Dedupe,
	keys: string[],
	executionId: string | undefined,
): Promise<Set<string>> {
	const unique = [...new Set(keys)];
	if (unique.length === 0) return new Set();
	const id = executionId ?? '';
	const mine = (key: string) => `${key}@${id}`;
	const claim = await helpers.checkProcessedAndRecord([...unique, ...unique.map(mine)], 'node', {
		mode: 'entries',
		maxEntries: PROCESSED_MAX,
	});
	const processed = new Set(claim.processed.map(String));
	return new Set(
		unique.filter((key) => !processed.has(key) || (id !== '' && processed.has(mine(key)))),
	);
}

/** The identity of one emitted change: its base key plus, for edits, the record's Modified_Time. */
export function changeKey(base: string, item: IDataObject, modifiedTime: unknown): string {
	return item.operation === 'edit' && typeof modifiedTime === 'string'
		? `${base}|${modifiedTime}`
		: base;
}
