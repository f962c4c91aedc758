import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { SETTLE_MS } from './catchUp';

/**
 * How the trigger keeps one CRM change to one workflow run (docs/crm-trigger.md). Two layers, each
 * catching what the one before cannot see:
 *
 * 1. In webhook(), the process latch (processClaims.ts): a synchronous check-and-set of delivery keys, and
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
 * Entries n8n's store keeps per trigger node: one per emitted change, and in a burst a delivery's
 * mark beside it (an md5 hash each, about 27 bytes: 2.7 MB at the most, read and written whole by each
 * execution). n8n trims its list by count, oldest first, and offers a node no other expiry; so this
 * is sized far beyond what the CRM can change between a change and its catch-up, the span the store
 * must cover (docs/crm-trigger.md).
 */
const PROCESSED_MAX = 100_000;

type Dedupe = Pick<IExecuteFunctions['helpers'], 'checkProcessedAndRecord'>;
type Release = Pick<IExecuteFunctions['helpers'], 'removeProcessed'>;
type Log = Pick<IExecuteFunctions['logger'], 'info' | 'warn'>;

/**
 * Checks that the claimed keys are still in the store: at most CHECKS, each after a pause of at
 * least CHECK_PAUSE_MS and CHECK_SPANS times the longest store call this claim made.
 */
const CHECKS = 6;
const CHECK_PAUSE_MS = 500;
const CHECK_SPANS = 4;

/**
 * How long the catch-up's execution waits, after its checks, before it looks for deliveries' marks:
 * at least MARK_WAIT_MS and MARK_SPANS times its longest store call. A delivery's execution writes
 * its marks one store call after its keys, but a write of ours that read the row before them can
 * drop them; they are back with its first check, one pause (CHECK_SPANS calls) later and after its
 * turn behind the claims of its worker's other executions (n8n runs 10 at once by default), so the
 * catch-up waits out that many calls of a store as slow as it found it. Only a catch-up execution
 * that won keys waits: one that found every change emitted already returns at once.
 */
const MARK_WAIT_MS = 5000;
const MARK_SPANS = 16;

/**
 * What one execution asks of a node's row: `keys` recorded, answered with those it found new. A
 * claim's keys are also checked against what this process's claims won lately (`claim`), and a
 * claim may name keys to record right after it (`then`: a delivery's marks).
 */
interface Request {
	helpers: Dedupe;
	keys: string[];
	claim: boolean;
	then?: (won: Set<string>) => string[];
	resolve: (answer: Answer) => void;
	reject: (error: unknown) => void;
}

/** What a request's call found: its keys new and processed, how long the call took, what `then` asked. */
interface Answer {
	new: string[];
	processed: string[];
	ms: number;
	repaired: number;
	then?: Promise<Answer>;
}

/**
 * One trigger node's row as this process uses it: its store calls one at a time, the requests that
 * wait for the next call, and the keys this process's claims won lately.
 *
 * n8n's store is read and written back whole, so calls of executions running side by side on one
 * worker would drop each other's keys: they take turns. And each call reads and writes the whole row
 * (about 20,000 entries after a 10,000-change burst), the cost that bounds a worker under a burst: so
 * the requests that wait while a call runs go together as the next call, each answered as if it had
 * been made alone, in the order they came (a key two of them ask for is new to the first only). A
 * concurrency guard like the latch, holding no state the workflow needs: empty after a restart.
 *
 * The keys won lately (`recent`, each with when it stops being recorded again): every later call of
 * the node in this process carries them too, so a key another process's write dropped after its
 * claim's last check (a write based on a read older than ours that landed late, from a process
 * stalled between its read and its write) is back with this process's next call, before the
 * catch-up reads the change. Under a burst, when drops happen, a worker calls the store many times a
 * second; what stays exposed is a drop after a worker's last call. Kept for RECENT_MS (after which a
 * key has been in the row longer than any stall) and at most RECENT_MAX keys per node
 * (docs/crm-trigger.md).
 */
class NodeRow {
	private readonly recent = new Map<string, number>();
	private waiting: Request[] | undefined;

	/** Joins the next call of this row (makes one when none waits). */
	async call(request: Omit<Request, 'resolve' | 'reject'>): Promise<Answer> {
		return await new Promise((resolve, reject) => {
			if (this.waiting === undefined) {
				const batch: Request[] = (this.waiting = []);
				inTurn(async () => await this.run(batch));
			}
			this.waiting.push({ ...request, resolve, reject });
		});
	}

	private async run(batch: Request[]): Promise<void> {
		if (this.waiting === batch) this.waiting = undefined;
		const started = Date.now();
		// what this process's claims won lately is taken, also if a write dropped it from the row
		const taken = new Set(this.recentKeys(started).keys());
		const asked = new Set(batch.flatMap((request) => request.keys));
		let found: Awaited<ReturnType<Dedupe['checkProcessedAndRecord']>>;
		try {
			found = await storeCall(batch[0].helpers, [
				...asked,
				...[...taken].filter((key) => !asked.has(key)),
			]);
		} catch (error) {
			for (const request of batch) request.reject(error);
			return;
		}
		const ms = Date.now() - started;
		const isNew = new Set(found.new.map(String));
		let repaired = [...isNew].filter((key) => !asked.has(key)).length;
		for (const request of batch) {
			const answer: Answer = { new: [], processed: [], ms, repaired };
			repaired = 0;
			for (const key of request.keys) {
				// new to the first request that asks, and never to a claim when taken
				if (isNew.has(key) && !(request.claim && taken.has(key))) {
					isNew.delete(key);
					answer.new.push(key);
				} else answer.processed.push(key);
			}
			if (request.claim) {
				const won = new Set(answer.new);
				const then = request.then?.(won) ?? [];
				this.keep([...won, ...then], Date.now());
				// in the next call of the row, so a mark is there one store call after its key
				if (then.length > 0)
					answer.then = this.call({ helpers: request.helpers, keys: then, claim: false });
			}
			request.resolve(answer);
		}
	}

	/** The keys this process's claims won lately, oldest first (expired ones forgotten). */
	private recentKeys(now: number): Map<string, number> {
		for (const [key, until] of this.recent) {
			if (until > now) break;
			this.recent.delete(key);
		}
		return this.recent;
	}

	/** Keeps `keys` among those won lately (recorded again by every call for RECENT_MS). */
	keep(keys: string[], now: number): void {
		const recent = this.recentKeys(now);
		for (const key of keys) {
			recent.delete(key);
			recent.set(key, now + RECENT_MS);
		}
		while (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
	}

	/** Forgets `keys` among those won lately: a released claim is not recorded again. */
	forget(keys: string[]): void {
		for (const key of keys) this.recent.delete(key);
	}
}
const RECENT_MS = 60_000;
const RECENT_MAX = 10_000;

/** The rows this process calls, per trigger node (`workflow id|node id`). */
const rows = new Map<string, NodeRow>();

function rowOf(node: string): NodeRow {
	let row = rows.get(node);
	if (!row) rows.set(node, (row = new NodeRow()));
	return row;
}

/** Store calls of this process, one at a time (also across nodes: one database pool serves them). */
let turn: Promise<unknown> = Promise.resolve();

function inTurn(work: () => Promise<void>): void {
	turn = turn.then(work, work);
}

/** `work` in this process's turn of the store, answered when it is done. */
async function myTurn<T>(work: () => Promise<T>): Promise<T> {
	return await new Promise<T>((resolve, reject) =>
		inTurn(async () => await work().then(resolve, reject)),
	);
}

/**
 * One call of n8n's store, made again when it fails: n8n inserts a node's row on the node's first
 * call, so when the first calls of two processes come at once both insert and the second fails on
 * the row's primary key ("duplicate key value"); the row is there then, and the call goes through.
 * Without it that claim recorded nothing and its changes ran again at the catch-up.
 */
async function storeCall(helpers: Dedupe, items: string[]) {
	let failure: unknown;
	for (let attempt = 1; attempt <= STORE_ATTEMPTS; attempt++) {
		if (attempt > 1) await sleep(STORE_RETRY_MS * (attempt - 1));
		try {
			return await helpers.checkProcessedAndRecord(items, 'node', {
				mode: 'entries',
				maxEntries: PROCESSED_MAX,
			});
		} catch (error) {
			failure = error;
		}
	}
	// the caller says what it does without the store (CrmTrigger.node.ts claimed)
	throw failure;
}
const STORE_ATTEMPTS = 3;
const STORE_RETRY_MS = 100;

/**
 * Who claims: the execution of a delivery, or of the catch-up (changes read from the CRM). When the
 * first claims of both overlap in the store, both find the key new; the delivery's execution then
 * marks its keys, and the catch-up's yields what is marked.
 */
export type ClaimSource = 'delivery' | 'catch-up';

/** Suffix of the mark a delivery's execution records beside each key it won. */
const DELIVERED = '|delivered';

/**
 * Whether the change of `key` is too young for any catch-up to have read it: the catch-up reads
 * changes SETTLE_MS old (catchUp.ts), on n8n's clock against the CRM's times, as this does; the
 * margin covers n8n processes whose clocks differ. Only an edit's key carries its time.
 */
function tooYoung(key: string): boolean {
	const time = changeTimeOf(key);
	return time !== undefined && Date.now() - time < SETTLE_MS - CLOCK_MARGIN_MS;
}
const CLOCK_MARGIN_MS = 10_000;

/**
 * Claims change keys in n8n's deduplication store; answers the keys this execution may emit
 * (those no other execution recorded before). `node` is the trigger node whose row this is
 * (`workflow id|node id`): what this process's claims won there lately goes with every call.
 *
 * The store is one row per node, read and written back whole without a lock: a write based on a
 * read older than our write drops our keys, and a later repeat of those changes (a copy, or the
 * catch-up's read) would run again. Calls of one process take turns (NodeRow). Across processes, a
 * write can drop our keys only if its read came before our write, so it lands within one store
 * call's span after it: each claim checks again once several spans have passed, records what was
 * dropped, and goes on until a check finds every key still there. After the last check no write that read before it is left to land, unless its process stalled between its read
 * and its write; what such a write drops, this process's next store call of the node records again
 * (NodeRow's recent keys), within the minute before the catch-up reads the change
 * (docs/crm-trigger.md). Two executions whose first claims overlap both find the key new. Between a
 * delivery's execution and the catch-up's (the catch-up reads a change while the delivery's
 * execution still waits in n8n's queue), the mark settles it: a delivery's execution marks the keys
 * it won in the row's next call, unless every change is too young for a catch-up
 * to have read it, and again with its checks; the catch-up's looks for those marks once its own
 * checks are done and a delivery's execution has had time to write them (MARK_WAIT_MS), and drops
 * the marked changes. Between two copies of a delivery that reached two processes, the race
 * remains. A key is present only if the execution that wrote it found it new: a change no
 * execution emitted is never dropped. `run`, a run's key (runKey), is recorded with the first write
 * and the checks and is in the answer when new: whether the run was claimed before.
 */
export async function claimChanges(
	helpers: Dedupe,
	node: string,
	keys: string[],
	source: ClaimSource = 'delivery',
	log?: Log,
	run?: string,
): Promise<Set<string>> {
	const changes = [...new Set(keys)];
	if (changes.length === 0) return new Set();
	// the run's key (runKey) goes with the first write and the checks, never with the marks
	const unique = run === undefined ? changes : [...changes, run];
	const ofChanges = (list: Iterable<string>) => [...list].filter((key) => key !== run);
	const row = rowOf(node);
	let span = 0;
	let repaired = 0;
	// every call of the row also records again what this process's claims of the node won lately
	const counted = (answer: Answer) => {
		span = Math.max(span, answer.ms);
		repaired += answer.repaired;
		return answer;
	};
	const record = async (list: string[]) =>
		counted(await row.call({ helpers, keys: list, claim: false }));
	// a delivery's execution marks what it won (never before: a mark of a key the catch-up had taken
	// first would make it drop its own), when a catch-up may read those changes: not for edits still
	// too young for any catch-up's read
	let marks: string[] = [];
	const markIfOld = (won: Set<string>) => {
		const wonChanges = ofChanges(won);
		if (source === 'delivery' && marks.length === 0 && wonChanges.some((key) => !tooYoung(key)))
			marks = wonChanges.map((key) => key + DELIVERED);
		return marks;
	};
	const first = counted(await row.call({ helpers, keys: unique, claim: true, then: markIfOld }));
	const won = new Set(first.new);
	// in the next call of the row, so the mark is there one store call after the key
	if (first.then) counted(await first.then);
	const pause = async () => await sleep(Math.max(CHECK_PAUSE_MS, CHECK_SPANS * span));
	let dropped: string[] = [];
	for (let check = 0; check < CHECKS && ofChanges(won).length > 0; check++) {
		await pause();
		// what another writer dropped comes back as new: recorded again by this very call, marks
		// included (also those of changes that grew old while the claim went on)
		const marked = marks.length > 0;
		if (!marked && markIfOld(won).length > 0) row.keep(marks, Date.now());
		const found = await record([...won, ...marks]);
		dropped = found.new.filter((key) => !key.endsWith(DELIVERED));
		// marks written for the first time are no repair
		repaired += marked ? found.new.length : dropped.length;
		if (dropped.length === 0) break;
	}
	// said, so that a change run twice can be traced to its cause
	const droppedChanges = ofChanges(dropped).length;
	if (droppedChanges > 0)
		log?.warn(
			`CRM Trigger: ${droppedChanges} claimed change(s) were still dropped from n8n's deduplication store at the last of ${CHECKS} checks; another execution may run them again`,
		);
	else if (dropped.length > 0)
		log?.warn(
			`CRM Trigger: this execution's run key was still dropped from n8n's deduplication store at the last of ${CHECKS} checks; a Retry of this execution would emit none of its changes`,
		);
	if (source === 'catch-up' && ofChanges(won).length > 0) {
		// a delivery's execution whose first claim overlapped ours has marked its keys by now
		await sleep(Math.max(MARK_WAIT_MS, MARK_SPANS * span));
		const found = await record(ofChanges(won).map((key) => key + DELIVERED));
		for (const mark of found.processed) won.delete(mark.slice(0, -DELIVERED.length));
		if (found.processed.length > 0)
			log?.info(
				`CRM Trigger: ${found.processed.length} change(s) a delivery's execution claimed at the same moment are left to it`,
			);
	}
	// said, so that operators see how often concurrent claims overwrite each other
	if (repaired > 0)
		log?.info(
			`CRM Trigger: ${repaired} key(s) of emitted changes that another process's write had dropped from n8n's deduplication store were recorded again`,
		);
	return won;
}

/**
 * Gives back keys an execution claimed and could not emit (CrmTrigger.node.ts execute(): a read of
 * the CRM failed after the claim), so that the catch-up's next read of those changes emits them
 * instead of finding them taken. Forgotten by this process's recent keys, then removed from the row
 * in this process's turn; a write of another process based on a read older than the removal can
 * put them back, so they are removed once more a pause later (docs/crm-trigger.md).
 */
export async function releaseChanges(
	helpers: Release,
	node: string,
	keys: string[],
): Promise<void> {
	if (keys.length === 0) return;
	// the marks too: a catch-up's look for them records them, and a mark left would yield the change
	const unique = [...new Set(keys)].flatMap((key) => [key, key + DELIVERED]);
	rowOf(node).forget(unique);
	for (let removal = 0; removal < RELEASE_REMOVALS; removal++) {
		if (removal > 0) await sleep(CHECK_SPANS * CHECK_PAUSE_MS);
		await myTurn(
			async () =>
				await helpers.removeProcessed(unique, 'node', {
					mode: 'entries',
					maxEntries: PROCESSED_MAX,
				}),
		);
	}
}
const RELEASE_REMOVALS = 2;

/**
 * The store key of one run (delivery.ts CHANGE_RUN), recorded with its claim: a Retry of the run
 * finds it taken when the run it repeats made its claim.
 */
export function runKey(run: string): string {
	return `run|${run}`;
}

/** The time an edit's key carries (changeKey), epoch ms; undefined for other keys. */
function changeTimeOf(key: string): number | undefined {
	const parts = key.split('|');
	return parts[0] === 'edit' && parts.length === 4 ? Number(parts[3]) : undefined;
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
