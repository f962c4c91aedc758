/**
 * A process-local concurrency guard for webhook(): a bounded map of keys claimed in the last
 * window, checked and set synchronously. n8n runs every request of a process on one JavaScript
 * thread, so a claim made before webhook()'s first await (or right after an await resolves, before
 * the next one) cannot interleave with another request's claim: of two identical deliveries that
 * reach the same process at the same instant, exactly one claims the key.
 *
 * It holds no state the workflow needs across executions or processes: it is empty after a restart
 * and unknown to other n8n processes. The durable record stays the workflow's static data (saved by
 * n8n after webhook() on the path where the node answers the request itself) and n8n's
 * deduplication store, claimed in execute() (dedupe.ts; README "How the CRM Trigger delivers each
 * change once").
 */
export class Latch {
	/** key → epoch ms the claim expires; Map keeps insertion order, so the oldest claim comes first */
	private readonly entries = new Map<string, number>();

	constructor(readonly maxEntries: number) {}

	/**
	 * Whether this call is the first to claim `key` within `ttlMs`; claims it if so. Synchronous on
	 * purpose: it must never yield between the check and the set.
	 */
	claim(key: string, ttlMs: number, now: number): boolean {
		this.expire(now);
		const until = this.entries.get(key);
		if (until !== undefined && until > now) return false;
		this.entries.delete(key);
		this.entries.set(key, now + ttlMs);
		// bounded memory under a burst: the oldest claims go first (the durable records still hold them)
		while (this.entries.size > this.maxEntries)
			this.entries.delete(this.entries.keys().next().value as string);
		return true;
	}

	/** Forgets every claim (tests, and nothing else, need a process that just started). */
	clear(): void {
		this.entries.clear();
	}

	get size(): number {
		return this.entries.size;
	}

	/** Drops expired claims from the front; a claim with a shorter window further back expires on its own check. */
	private expire(now: number): void {
		for (const [key, until] of this.entries) {
			if (until > now) break;
			this.entries.delete(key);
		}
	}
}

/** Claims per n8n process: deliveries and changes of every CRM Trigger, keyed by workflow id + key. */
export const LATCH_MAX = 5000;
export const latch = new Latch(LATCH_MAX);
