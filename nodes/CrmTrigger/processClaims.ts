/**
 * A process-local concurrency guard for webhook(): a map of keys claimed in the last window,
 * checked and set synchronously. A key is kept for its whole window whatever the burst; only past
 * a memory ceiling (LATCH_CEILING) do the oldest claims go early. n8n runs every request of a
 * process on one JavaScript thread, so a claim made before webhook()'s first await cannot
 * interleave with another request's claim: of two identical deliveries that reach the same process
 * at the same instant, exactly one claims the key.
 *
 * A claim remembers the request that made it: when n8n could not store that request's execution
 * (it answers with an error, even after the CRM stopped waiting), a re-send of the same change takes
 * the claim over, and a re-send that arrives while n8n is still storing it waits for that answer
 * (webhook()). So a change is neither started twice in a process nor lost to a failed store.
 *
 * It holds no state the workflow needs across executions or processes: it is empty after a restart
 * and unknown to other n8n processes. The shared record is n8n's deduplication store, claimed in
 * execute() (dedupe.ts; docs/crm-trigger.md).
 */
export class Latch {
	/**
	 * key → when the claim expires (epoch ms) and the attempt holding it; Map keeps insertion
	 * order, so the oldest claim comes first
	 */
	private readonly entries = new Map<string, { until: number; attempt?: Attempt }>();

	constructor(readonly maxEntries: number) {}

	/**
	 * Whether this call may take `key` within `ttlMs`: when nobody holds it, or its holder's request
	 * was refused by n8n (the CRM sends that delivery again, and this is the copy that carries it);
	 * claims it if so. Synchronous on purpose: it must never yield between the check and the set.
	 */
	claim(key: string, ttlMs: number, now: number, attempt?: Attempt): boolean {
		this.expire(now);
		const answer = this.holderAnswer(key, now);
		if (answer !== undefined && answer !== 'refused') return false;
		this.entries.delete(key);
		this.entries.set(key, { until: now + ttlMs, attempt });
		// memory ceiling only: below it a claim lives its whole window, whatever the burst
		while (this.entries.size > this.maxEntries)
			this.entries.delete(this.entries.keys().next().value as string);
		return true;
	}

	/** Whether `key` is held by a request n8n has not answered yet (its execution may still fail to be stored). */
	pending(key: string, now: number): boolean {
		return this.holderAnswer(key, now) === 'pending';
	}

	/** Forgets every claim (tests, and nothing else, need a process that just started). */
	clear(): void {
		this.entries.clear();
	}

	get size(): number {
		return this.entries.size;
	}

	/** How n8n answered the request holding an unexpired claim on `key` (a claim made without one counts as taken); undefined when none holds it. */
	private holderAnswer(key: string, now: number): Answer | undefined {
		const held = this.entries.get(key);
		if (held === undefined || held.until <= now) return undefined;
		return held.attempt?.answer() ?? 'taken';
	}

	/** Drops expired claims from the front; a claim with a shorter window further back expires on its own check. */
	private expire(now: number): void {
		for (const [key, { until }] of this.entries) {
			if (until > now) break;
			this.entries.delete(key);
		}
	}
}

/** How n8n answered the request of one webhook() call: took its execution, refused it, or not yet. */
export type Answer = 'taken' | 'refused' | 'pending';

/** One webhook() call: whoever holds its claims can ask how n8n answered its request. */
export interface Attempt {
	answer(): Answer;
}

/** What webhook() needs of n8n's response object (Node's http.ServerResponse has it). */
interface ResponseState {
	writableEnded?: boolean;
	statusCode?: number;
	once?: (event: 'close', listener: () => void) => unknown;
}

/**
 * The attempt of a webhook() call answered on `res`. n8n answers a request whose execution it
 * stored and queued with 2xx, and one whose execution it could not store (e.g. its database pool
 * timed out) with an error status, also after the CRM stopped waiting (the answer is then set but
 * never sent). The verdict is read from the response when asked, and kept once known so the
 * request can go.
 */
export function attemptOf(res: ResponseState): Attempt {
	// a response without Node's state (no http request behind it) counts as taken, as before
	if (typeof res.writableEnded !== 'boolean') return { answer: () => 'taken' };
	let response: ResponseState | undefined = res;
	let verdict: Answer = 'pending';
	const answer = (): Answer => {
		if (response?.writableEnded) {
			verdict = (response.statusCode ?? 200) < 300 ? 'taken' : 'refused';
			response = undefined;
		}
		return verdict;
	};
	res.once?.('close', answer);
	return { answer };
}

/**
 * The most claims one n8n process holds (deliveries, creates and deletes of every CRM Trigger, keyed
 * by workflow id + key; about 150 bytes each): a burst of this many changes inside one window.
 */
const LATCH_CEILING = 250_000;
export const latch = new Latch(LATCH_CEILING);
