import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * How the trigger keeps one CRM change to one workflow run (docs/crm-trigger.md). Two layers, each
 * catching what the one before cannot see:
 *
 * 1. In webhook(), the process latch (latch.ts): a synchronous check-and-set of delivery keys, and
 *    of the change keys of creates and deletes, so copies of a delivery that reach the same n8n
 *    process start one execution, also at the same moment. Kept for a time, whatever the burst;
 *    process-local and forgotten on restart.
 * 2. In execute(), the first node of every production execution (on a worker in queue mode):
 *    n8n's deduplication store (`helpers.checkProcessedAndRecord`, table `processed_data`), shared
 *    by every n8n process: it catches copies that reached another process, or this one after a
 *    restart, and the changes the catch-up reads again after a delivery brought them.
 *
 * Workflow static data is no layer: n8n 2.40.7 drops what webhook() writes there whenever it starts
 * an execution and answers the request itself.
 */

/** How long the latch remembers a delivery or change key (at least the freshness window). */
export const DEFAULT_WINDOW_MS = 10 * 60 * 1000;

/**
 * Changes n8n's store keeps per trigger node, one entry each (an md5 hash, about 27 bytes: 2.7 MB
 * at the most, read and written whole by each execution). n8n trims its list by count, oldest
 * first, and offers a node no other expiry; so this is sized far beyond what the CRM can change
 * between a change and its catch-up, the span the store must cover (docs/crm-trigger.md).
 */
export const PROCESSED_MAX = 100_000;

type Dedupe = Pick<IExecuteFunctions['helpers'], 'checkProcessedAndRecord'>;

/**
 * Claims change keys in n8n's deduplication store; answers the keys this execution may emit
 * (those no other execution recorded before).
 *
 * The store is read-modify-write without a lock, so this is not an atomic test-and-set: two
 * executions whose claims overlap (both read before either writes) both emit, and a write based on
 * an older read drops the keys written in between. It never drops a change no execution emitted: a
 * key is present only if the execution that wrote it found it new, and emitted it.
 */
export async function claimChanges(helpers: Dedupe, keys: string[]): Promise<Set<string>> {
	const unique = [...new Set(keys)];
	if (unique.length === 0) return new Set();
	const claim = await helpers.checkProcessedAndRecord(unique, 'node', {
		mode: 'entries',
		maxEntries: PROCESSED_MAX,
	});
	return new Set(claim.new.map(String));
}

/**
 * The identity of one emitted change: its base key (delivery.ts changeBase) plus, for edits, the
 * record's Modified_Time (whole seconds, as epoch ms), read when the change is handled.
 */
export function changeKey(base: string, item: IDataObject, modifiedTime: unknown): string {
	if (item.operation !== 'edit') return base;
	const ms = Date.parse(String(modifiedTime ?? ''));
	return Number.isFinite(ms) ? `${base}|${Math.floor(ms / 1000) * 1000}` : base;
}
