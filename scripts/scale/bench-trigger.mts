// Bench row P6 (`npm run bench:queue`, i.e. `test:scale --bench-trigger`): the CRM Trigger in
// production shape against n8n's own floor, in the queue-mode stack of scale.mts.
//
// (a) a burst of deal edits through the sandbox's REST API, 100 per request as in test:scale: the
//     sandbox sends one delivery per request (docs/protocol.md §9.4) to the CRM Trigger workflow
//     (Deals edit, Full Records → Filter → Set);
// (b) the very bodies of those deliveries POSTed by this script, on the same schedule (each at its
//     offset from the first), to a plain n8n Webhook workflow (POST, answers at once) followed by the
//     same Filter and Set nodes: what n8n costs with no CRM code at all.
// Both go through the same round-robin proxy to the same webhook process, and the same 2 workers.
// (b) starts once the webhook process is ready and quiet again, so that it does not pay for (a)'s aftermath.
// Latency: (a) change made → execution finished, (b) delivery sent → execution finished (the sandbox
// sends a delivery as it answers the write, so both start at the same moment of a change), from the
// executions' stoppedAt in PostgreSQL; changes/s: changes ÷ (first change → last execution finished).
// Changes are counted, not deliveries: one delivery carries 100 record ids. A warm-up of a few
// deliveries through both first, so that neither side pays n8n's first-execution costs. The burst
// and its floors run --rounds times (3 by default), each round on deals of its own; a ratio is taken
// within its round, and P6 reports the rounds' median.
// The rows go to bench/queue-mode.json, which `npm run bench` merges into bench/results.md.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';

import { REPO } from '../n8n-runtime.mts';
import { countBy, formatCounts, percentile, refusalsByOperation } from './observe.mts';

/** 200 deliveries of 100 changes, one burst */
export const BENCH_DEFAULT_CHANGES = 20_000;
/** rounds of the burst and its floors: a figure is their median (one run's floor moves a lot) */
export const BENCH_DEFAULT_ROUNDS = 3;
/** delivery batches of the warm-up, before the measured burst */
export const BENCH_WARMUP_BATCHES = 3;
/** the floor Webhook node's path */
export const FLOOR_PATH = 'crm-scale-floor';
export const BENCH_TARGET = 1.2;
/** the CRM's answer timeout (docs/protocol.md §9.5): answers slower than this count as timeouts */
const CRM_TIMEOUT_MS = 10_000;
const BATCH = 100;
const SETTLE_CAP_MS = 300_000;
/** a lost delivery's changes come with the catch-up (a minute old, at its next minute): wait for it */
const NO_PROGRESS_MS = 150_000;

interface Change {
	id: string;
	module: 'Deals';
	time: string;
	at: number;
	phase: number;
}

interface TallyLike {
	changes: number;
	lostIds?: string[];
	lost: number;
	doubled: number;
	doubledIds?: string[];
	latencies: number[];
	lastFinished: number;
	firstChange: number;
}

interface ExecutionLike {
	id: number;
	status: string;
	workflowId: string;
	/** n8n's execution mode: 'webhook' for a delivery, 'trigger' for a catch-up */
	mode?: string;
	createdAt?: number | null;
	stoppedAt?: number | null;
	records: Map<string, string | undefined>;
}

/**
 * Evidence for a change run twice: per pair of executions that both ran some of the doubled
 * changes, how many, and when each was created and stopped (seconds after the burst's first
 * change), with n8n's mode (webhook: a delivery; trigger: the catch-up). Written to
 * doubled.json in the run's folder and summed up in one line.
 */
function doubledEvidence(
	ids: string[],
	changes: Change[],
	executions: Iterable<ExecutionLike>,
	workflowId: string,
	runDir: string,
): string {
	const first = Math.min(...changes.map((c) => c.at));
	const at = (ms?: number | null) => (ms ? `${((ms - first) / 1000).toFixed(1)} s` : '?');
	const runs = [...executions].filter((e) => e.workflowId === workflowId && e.status === 'success');
	const groups = new Map<string, { ids: string[]; executions: ExecutionLike[] }>();
	for (const id of ids) {
		const holding = runs.filter((e) => e.records.has(id));
		const key = holding.map((e) => e.id).join('+');
		const group = groups.get(key) ?? { ids: [], executions: holding };
		group.ids.push(id);
		groups.set(key, group);
	}
	const list = [...groups.values()].map((g) => ({
		changes: g.ids.length,
		ids: g.ids,
		executions: g.executions.map((e) => ({
			id: e.id,
			mode: e.mode,
			created: at(e.createdAt),
			stopped: at(e.stoppedAt),
		})),
	}));
	writeFileSync(path.join(runDir, 'doubled.json'), JSON.stringify(list, null, 1));
	return list
		.map(
			(g) =>
				`${g.changes} in ${g.executions.map((e) => `#${e.id} ${e.mode} (created ${e.created}, stopped ${e.stopped})`).join(' and ')}`,
		)
		.join('; ');
}

export interface BenchContext {
	changes: number;
	/** how many times the burst and both floors run, each on deals of its own */
	rounds: number;
	/** deals created for the run: the warm-up's, then the burst's */
	dealIds: string[];
	crm: (method: string, p: string, body?: unknown) => Promise<{ status: number; body: any }>;
	deliveries: () => any[];
	floorUrl: string;
	/** the floor any community trigger pays: a credentialed trigger node whose webhook() returns the body */
	floorTriggerUrl: string;
	/** the proxy's uncensored answer times of every request it passed on */
	answers: Array<{ path: string; at: number; ms?: number; status?: number; error?: string }>;
	/** n8n's settings of the run: the database pool of each process and the expression engine */
	settings: { dbPool: number; expressionEngine: string };
	/** reads the executions from PostgreSQL into `executions` */
	refresh: () => Promise<void>;
	executions: Map<number, ExecutionLike>;
	tally: (list: Change[], workflowId: string) => TallyLike;
	pg: { query(text: string, values?: unknown[]): Promise<{ rows: any[] }> };
	workflows: { crm: string; floor: string; floorTrigger: string };
	log: (msg: string) => void;
	check: (ok: boolean, text: string) => boolean;
	/** one line on n8n, PostgreSQL, Redis and Node of the run */
	stack: string;
	/** the sandbox's request log (status of each API call: the §7 429s) */
	requests: () => Array<{ method: string; url: string; status: number }>;
	/** the webhook process's log so far */
	webhookLog: () => string;
	/** where the run keeps its evidence (deliveries.json) */
	runDir: string;
	/** the sandbox's HTTP server: how long it takes to answer the trigger's record fetches */
	server: Server;
	/** the webhook process's readiness probe (n8n's /healthz/readiness: database connected and migrated) */
	webhookReadyUrl: string;
}

/** n8n's log lines that show its webhook process struggling with its database (docs/protocol.md §9.5: the CRM re-sends what was not answered 2xx) */
const WEBHOOK_TROUBLE: Array<[string, RegExp]> = [
	['503 Database is not ready', /503 Database is not ready/g],
	['DB pool timeout', /timeout exceeded when trying to connect/g],
	['Driver not Connected', /^TypeORMError: Driver not Connected/gm],
	['DB ping failed', /Database ping failed/g],
	['request body aborted (the CRM gave up waiting)', /400 Request body stream was aborted/g],
	['problem executing the workflow', /There was a problem executing the workflow/g],
];

interface Side {
	name: string;
	/** answers slower than the CRM's timeout, answers 503, answers that never came */
	timeouts: number;
	unavailable: number;
	unanswered: number;
	/** what the sandbox saw and n8n logged during this side's burst */
	trouble: string;
	changes: Change[];
	deliveries: number;
	tally: TallyLike;
	/** how long the receiving webhook took to answer a delivery, ms */
	answers: number[];
	executionIds: number[];
	db: { executions: number; avgBytes: number; waitMs: number; runMs: number };
}

/** the three sides of one burst */
interface Round {
	label: string;
	crm: Side;
	floor: Side;
	hook: Side;
	/** n8n's deduplication store after the round */
	store: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => (ms / 1000).toFixed(2);

const perSecond = (t: TallyLike) => t.changes / ((t.lastFinished - t.firstChange) / 1000);

/**
 * The commit the run measures, read when the script starts, before it builds the package: a commit
 * made while the run goes on is not what it measured.
 */
const git = (...args: string[]) =>
	spawnSync('git', args, { cwd: REPO, encoding: 'utf8' }).stdout?.trim() ?? '';
const BUILT_FROM = `${git('rev-parse', '--short', 'HEAD') || 'unknown'}${git('status', '--porcelain', '--untracked-files=no') !== '' ? ' + uncommitted changes' : ''}`;

export async function benchTrigger(ctx: BenchContext): Promise<void> {
	const { log } = ctx;
	// the CRM Trigger's record fetches (GET /Deals?ids=…; the script itself only PUTs): start, end, and
	// how many the sandbox had in hand at once, to tell the CRM's service time from n8n's own waits
	const fetches: Array<{ start: number; end: number; inFlight: number }> = [];
	let inFlight = 0;
	ctx.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
		if (req.method !== 'GET' || !/\/Deals\?ids=/.test(req.url ?? '')) return;
		const entry = { start: Date.now(), end: 0, inFlight: ++inFlight };
		res.once('close', () => {
			entry.end = Date.now();
			inFlight--;
			fetches.push(entry);
		});
	});
	const lastDelivery = () =>
		ctx.deliveries().reduce((m: number, d: any) => Math.max(m, d.delivery_id), 0);

	/** Deal edits through the REST API, 100 per request, as fast as the sandbox takes them. */
	async function crmBurst(
		ids: string[],
		stage: string,
	): Promise<{ changes: Change[]; firstDelivery: number }> {
		const firstDelivery = lastDelivery();
		const changes: Change[] = [];
		for (let i = 0; i < ids.length; i += BATCH) {
			const slice = ids.slice(i, i + BATCH);
			const res = await ctx.crm('PUT', '/Deals', {
				data: slice.map((id) => ({ id, Stage: stage, Description: 'bench P6' })),
			});
			const at = Date.now();
			if (res.status !== 200)
				throw new Error(
					`updating deals answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
				);
			for (const item of res.body.data)
				changes.push({
					id: String(item.details.id),
					module: 'Deals',
					time: item.details.Modified_Time,
					at,
					phase: 0,
				});
		}
		return { changes, firstDelivery };
	}

	/** Until every change is in a successful execution of the workflow and nothing is in progress (or no progress for a while). */
	async function settle(
		workflowId: string,
		changes: Change[],
		firstDelivery?: number,
	): Promise<TallyLike> {
		const start = Date.now();
		let lastSeen = -1;
		let progressAt = Date.now();
		for (;;) {
			await ctx.refresh();
			const t = ctx.tally(changes, workflowId);
			const seen = t.changes - t.lost;
			const busy = [...ctx.executions.values()].some(
				(e) => e.workflowId === workflowId && ['new', 'running', 'waiting'].includes(e.status),
			);
			const pending =
				firstDelivery === undefined
					? 0
					: ctx.deliveries().filter((d) => d.delivery_id > firstDelivery && d.outcome === 'pending')
							.length;
			if (seen !== lastSeen) {
				lastSeen = seen;
				progressAt = Date.now();
			}
			if (!busy && pending === 0 && (t.lost === 0 || Date.now() - progressAt > NO_PROGRESS_MS))
				return t;
			if (Date.now() - start > SETTLE_CAP_MS) {
				log(`  not settled after ${secs(SETTLE_CAP_MS)} s: ${seen}/${t.changes} changes seen`);
				return t;
			}
			await sleep(500);
		}
	}

	/** The CRM's deliveries of a burst, POSTed again to the floor on the schedule the sandbox sent them. */
	async function replay(
		url: string,
		sent: any[],
		changes: Change[],
	): Promise<{ changes: Change[]; answers: number[]; statuses: number[] }> {
		const atOf = new Map(changes.map((c) => [c.id, c]));
		const first = Math.min(...changes.map((c) => c.at));
		const plan = sent.map((d) => ({
			d,
			offset: Math.min(...(d.ids as string[]).map((id) => atOf.get(id)?.at ?? Infinity)) - first,
		}));
		const out: Change[] = [];
		const answers: number[] = [];
		const statuses: number[] = [];
		const start = Date.now();
		await Promise.all(
			plan.map(async ({ d, offset }) => {
				await sleep(Math.max(0, start + offset - Date.now()));
				const sentAt = Date.now();
				const res = await fetch(url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify(d.body),
				});
				await res.arrayBuffer();
				answers.push(Date.now() - sentAt);
				statuses.push(res.status);
				for (const id of d.ids as string[]) out.push({ ...atOf.get(id)!, at: sentAt });
			}),
		);
		return { changes: out, answers, statuses };
	}

	const burstDeliveries = (firstDelivery: number) =>
		ctx.deliveries().filter((d) => d.delivery_id > firstDelivery && d.module === 'Deals');

	/** The webhook process ready and no record fetch for 5 s: the next side does not pay for the last one's aftermath. */
	async function quiet(after: string): Promise<void> {
		const quietStart = Date.now();
		await waitUntil(
			`the webhook process to be ready and quiet after ${after}`,
			180_000,
			async () => {
				const res = await fetch(ctx.webhookReadyUrl);
				await res.arrayBuffer();
				const lastFetch = Math.max(0, ...fetches.map((f) => f.end), inFlight > 0 ? Date.now() : 0);
				return res.status === 200 && Date.now() - lastFetch > 5000;
			},
		);
		log(`  webhook process ready and quiet ${secs(Date.now() - quietStart)} s after ${after}`);
	}

	/**
	 * Waits until the CRM Trigger's catch-up has read the changes up to `lastChange` (it reads changes
	 * a minute old, every minute in this stack) and its executions are done; answers what it ran.
	 */
	async function catchUpAfter(
		sinceExecution: number,
		lastChange: number,
	): Promise<{ executions: number; emitted: number }> {
		const ofCatchUp = () =>
			[...ctx.executions.values()].filter(
				(e) => e.id > sinceExecution && e.workflowId === ctx.workflows.crm && e.mode === 'trigger',
			);
		await sleep(Math.max(0, lastChange + 125_000 - Date.now()));
		let count = -1;
		let stableSince = Date.now();
		await waitUntil("the CRM Trigger's catch-up over the burst", 240_000, async () => {
			await ctx.refresh();
			const list = ofCatchUp();
			const busy = list.some((e) => ['new', 'running', 'waiting'].includes(e.status));
			if (list.length !== count || busy) {
				count = list.length;
				stableSince = Date.now();
			}
			return Date.now() - stableSince > 15_000;
		});
		const list = ofCatchUp();
		return {
			executions: list.length,
			emitted: list.reduce((n, e) => n + e.records.size, 0),
		};
	}

	/** (a) the CRM Trigger, (b) n8n's Webhook node, (c) the community-trigger floor, over one set of deals. */
	async function sides(ids: string[], stage: string, label: string): Promise<Side[]> {
		log(`${label}: ${ids.length} deal edits through the CRM Trigger…`);
		const marks = () => ({
			at: Date.now(),
			requests: ctx.requests().length,
			log: ctx.webhookLog().length,
			execution: Math.max(0, ...ctx.executions.keys()),
			answers: ctx.answers.length,
		});
		const startA = marks();
		const a = await crmBurst(ids, stage);
		const settled = await settle(ctx.workflows.crm, a.changes, a.firstDelivery);
		const sent = burstDeliveries(a.firstDelivery);
		// the CRM Trigger's catch-up reads the burst once it is a minute old, at its next minute: it runs
		// before the floors' sides start, so that they do not pay for it (its cost is reported with (a)),
		// and what it runs counts: a change it ran again is a double, one no delivery brought is not lost
		const catchUp = await catchUpAfter(startA.execution, Math.max(...a.changes.map((c) => c.at)));
		// the latencies stay those of the settled burst; lost and doubled are counted after the catch-up
		const after = ctx.tally(a.changes, ctx.workflows.crm);
		const ta = { ...settled, lost: after.lost, lostIds: after.lostIds, doubled: after.doubled };
		if (after.doubled > 0)
			ctx.log(
				`  doubled: ${doubledEvidence(after.doubledIds ?? [], a.changes, ctx.executions.values(), ctx.workflows.crm, ctx.runDir)} (doubled.json)`,
			);
		const troubleSince = (start: ReturnType<typeof marks>, d: any[], lostIds: Set<string>) => {
			const text = ctx.webhookLog().slice(start.log);
			const lines = WEBHOOK_TROUBLE.map(
				([name, re]) => [name, (text.match(re) ?? []).length] as const,
			).filter(([, n]) => n > 0);
			const attempts = d.flatMap((x) => x.attempts as any[]);
			const lostLast = d
				.filter((x) => (x.ids as string[]).some((id) => lostIds.has(id)))
				.map((x) => x.attempts.filter((y: any) => !y.copy).at(-1));
			const got = fetches.filter((f) => f.start >= start.at);
			const took = got.map((f) => f.end - f.start);
			const notOk = [...ctx.executions.values()].filter(
				(e) =>
					e.id > start.execution &&
					Object.values(ctx.workflows).includes(e.workflowId) &&
					e.status !== 'success',
			);
			return (
				`429s answered to n8n: ${formatCounts(refusalsByOperation(ctx.requests().slice(start.requests)))}; ` +
				(got.length
					? `${got.length} record fetches (GET /Deals?ids=) answered by the sandbox in p50 ${percentile(took, 50)} ms, p95 ${percentile(took, 95)} ms, at most ${Math.max(...got.map((f) => f.inFlight))} at once, ` +
						`the last ${secs(Math.max(...got.map((f) => f.end)) - start.at)} s after the burst began; `
					: '') +
				(d.length
					? `${d.length} deliveries / ${attempts.length} POSTs (the CRM sends once), the CRM saw: ${formatCounts(countBy(attempts, (x: any) => String(x.status ?? x.error)))}; `
					: '') +
				(lostLast.length
					? `n8n's answer to the ${lostLast.length} deliveries with lost changes: ${formatCounts(countBy(lostLast, (x: any) => `${x?.status ?? x?.error} ${JSON.stringify(x?.response ?? '').slice(0, 80)}`))}; `
					: '') +
				`executions not successful: ${formatCounts(countBy(notOk, (e) => e.status))}; ` +
				(start === startA
					? `the catch-up re-read the burst in ${catchUp.executions} execution(s) and ran ${catchUp.emitted} change(s) no delivery brought; `
					: '') +
				`webhook process log: ${lines.map(([n, c]) => `${n} ×${c}`).join(', ') || 'nothing amiss'}`
			);
		};
		// the CRM Trigger's answers, uncensored, as the proxy in front of the webhook process timed them
		const crmPath = sent[0] ? new URL(sent[0].notify_url).pathname : '';
		const crmAnswers = ctx.answers.slice(startA.answers).filter((x) => x.path === crmPath);
		const troubleA = troubleSince(startA, sent, new Set(ta.lostIds ?? []));
		writeFileSync(path.join(ctx.runDir, `deliveries-${label}.json`), JSON.stringify(sent, null, 1));
		log(
			`  ${label} (a) CRM Trigger: ${sent.length} deliveries, lost ${ta.lost}; replaying their bodies to the floors…`,
		);
		const floor = async (name: string, url: string, workflowId: string) => {
			await quiet(`the side before ${name}`);
			const start = marks();
			const r = await replay(url, sent, a.changes);
			const t = await settle(workflowId, r.changes);
			log(
				`  ${label} ${name}: ${r.statuses.length} POSTs (${r.statuses.filter((x) => x !== 200).length} not answered 200), lost ${t.lost}`,
			);
			return side(
				name,
				workflowId,
				r.changes,
				t,
				r.answers,
				r.statuses,
				troubleSince(start, [], new Set()),
			);
		};
		const side = (
			name: string,
			workflowId: string,
			changes: Change[],
			t: TallyLike,
			answers: number[],
			statuses: number[],
			trouble: string,
		): Side => {
			const idSet = new Set(changes.map((c) => c.id));
			const executionIds = [...ctx.executions.values()]
				.filter(
					(e) => e.workflowId === workflowId && [...e.records.keys()].some((id) => idSet.has(id)),
				)
				.map((e) => e.id);
			return {
				name,
				trouble,
				changes,
				deliveries: sent.length,
				tally: t,
				answers,
				timeouts: answers.filter((ms) => ms > CRM_TIMEOUT_MS).length,
				unavailable: statuses.filter((st) => st === 503).length,
				unanswered: sent.length - answers.length,
				executionIds,
				db: { executions: 0, avgBytes: NaN, waitMs: NaN, runMs: NaN },
			};
		};
		const crmSide = side(
			'CRM Trigger',
			ctx.workflows.crm,
			a.changes,
			ta,
			crmAnswers.filter((x) => x.ms !== undefined).map((x) => x.ms!),
			crmAnswers.filter((x) => x.status !== undefined).map((x) => x.status!),
			troubleA,
		);
		const floorTrigger = await floor(
			'floor (community trigger with a credential)',
			ctx.floorTriggerUrl,
			ctx.workflows.floorTrigger,
		);
		const floorHook = await floor('floor (n8n Webhook)', ctx.floorUrl, ctx.workflows.floor);
		return [crmSide, floorTrigger, floorHook];
	}

	// the floors' URLs are served once publication reached the webhook process (these POSTs are warm-up too)
	for (const url of [ctx.floorUrl, ctx.floorTriggerUrl])
		await waitUntil(`${url} to be served`, 90_000, async () => {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: '{"warmup":true}',
			});
			await res.arrayBuffer();
			return res.status === 200;
		});
	/**
	 * n8n's deduplication store: the CRM Trigger's row, which every claim reads and writes whole, and
	 * the table on disk with its churn (each write leaves the old row behind until autovacuum)
	 */
	async function storeState(): Promise<string> {
		return storeQuery().catch((error: Error) => `not read (${error.message})`);
	}
	async function storeQuery(): Promise<string> {
		const row = (
			await ctx.pg.query(
				`select json_array_length((value::text)::json->'data') as entries, octet_length(value::text) as bytes
				 from processed_data where "workflowId" = $1`,
				[ctx.workflows.crm],
			)
		).rows[0];
		const table = (
			await ctx.pg.query(
				`select pg_total_relation_size('processed_data') as size, n_tup_upd as updates, autovacuum_count as vacuums
				 from pg_stat_user_tables where relname = 'processed_data'`,
			)
		).rows[0];
		const mb = (bytes: unknown) => (Number(bytes ?? 0) / 1024 / 1024).toFixed(1);
		return (
			`the CRM Trigger's row ${row?.entries ?? 0} entries (${mb(row?.bytes)} MB); ` +
			`the table on disk ${mb(table?.size)} MB after ${table?.updates ?? 0} row writes, ${table?.vacuums ?? 0} autovacuums`
		);
	}

	const warmIds = ctx.dealIds.slice(0, BENCH_WARMUP_BATCHES * BATCH);
	await sides(warmIds, 'Needs Analysis', 'warm-up');
	log(`n8n's deduplication store after the warm-up: ${await storeState()}`);
	const beforeBurst = Math.max(0, ...ctx.executions.keys());
	// each round edits deals of its own (the tally knows a change by its record id), the floors after it
	const rounds: Round[] = [];
	let deliveriesBefore = 0;
	for (let r = 0; r < ctx.rounds; r++) {
		const from = warmIds.length + r * ctx.changes;
		const label = ctx.rounds > 1 ? `burst ${r + 1} of ${ctx.rounds}` : 'burst';
		deliveriesBefore = lastDelivery();
		const [crm, floor, hook] = await sides(
			ctx.dealIds.slice(from, from + ctx.changes),
			'Proposal/Price Quote',
			label,
		);
		const store = await storeState();
		log(`  n8n's deduplication store after ${label}: ${store}`);
		rounds.push({ label, crm, floor, hook, store });
	}

	// the deduplication window after the whole run: a copy of the last burst's first delivery, sent
	// through the balancer twice (so to both webhook processes), runs none of its changes again
	const firstOfBurst = ctx
		.deliveries()
		.filter((d) => d.delivery_id > deliveriesBefore && d.module === 'Deals')
		.sort((x, y) => x.delivery_id - y.delivery_id)[0];
	const beforeCopy = Math.max(0, ...ctx.executions.keys());
	const copyStatuses: number[] = [];
	for (let i = 0; i < 2; i++) {
		const res = await fetch(firstOfBurst.notify_url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(firstOfBurst.body),
		});
		await res.arrayBuffer();
		copyStatuses.push(res.status);
	}
	const copyAge = Date.now() - Number(firstOfBurst.body.server_time);
	await sleep(20_000);
	await ctx.refresh();
	const afterCopy = [...ctx.executions.values()].filter(
		(e) => e.id > beforeCopy && e.workflowId === ctx.workflows.crm && e.mode === 'webhook',
	);
	const ranAgain = afterCopy.filter((e) => e.records.size > 0);
	const allChanges = ctx.rounds * ctx.changes;
	log(
		`a copy of the last burst's first delivery (${secs(copyAge)} s old, after ${allChanges} changes) sent twice through the balancer: answered ${copyStatuses.join(', ')}; ` +
			`${afterCopy.length} execution(s) started, ${ranAgain.length} ran a change again`,
	);

	// what each execution costs n8n: its stored data (execution_data), its wait in the queue and its run on a worker
	for (const s of rounds.flatMap((r) => [r.crm, r.floor, r.hook])) {
		const row = (
			await ctx.pg.query(
				`select count(*)::int as n, avg(octet_length(d.data))::float as bytes,
				 percentile_cont(0.5) within group (order by extract(epoch from (e."startedAt" - e."createdAt")) * 1000) as wait,
				 percentile_cont(0.5) within group (order by extract(epoch from (e."stoppedAt" - e."startedAt")) * 1000) as run
				 from execution_entity e join execution_data d on d."executionId" = e.id where e.id = any($1)`,
				[s.executionIds],
			)
		).rows[0];
		s.db = {
			executions: row.n,
			avgBytes: Number(row.bytes),
			waitMs: Number(row.wait),
			runMs: Number(row.run),
		};
	}

	// ---- report ----
	const p = (t: TallyLike, q: number) => percentile(t.latencies, q);
	/** the figures P6 judges, of one side of one round */
	const figures = (x: Side) => ({
		answerP50: percentile(x.answers, 50),
		answerP95: percentile(x.answers, 95),
		p50: p(x.tally, 50),
		p95: p(x.tally, 95),
		rate: perSecond(x.tally),
	});
	type Figure = keyof ReturnType<typeof figures>;
	const FIGURES: Figure[] = ['answerP50', 'answerP95', 'p50', 'p95', 'rate'];
	/** CRM Trigger ÷ floor, per figure; for the rate floor ÷ CRM Trigger (time per change) */
	const ratio = (crm: Side, floor: Side, k: Figure) =>
		k === 'rate' ? figures(floor).rate / figures(crm).rate : figures(crm)[k] / figures(floor)[k];
	// a ratio is taken within a round (its sides ran minutes apart) and the rounds' ratios give the median
	const medianOf = (values: number[]) => {
		const sorted = [...values].sort((a, b) => a - b);
		const mid = Math.floor(sorted.length / 2);
		return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	};
	// a round whose floor itself answered 503 or lost changes has no floor: its ratios are printed and
	// left out of the medians; with no round left, the run gives no verdict
	const floorFailedIn = (r: Round) => r.floor.unavailable > 0 || r.floor.tally.lost > 0;
	const judged = rounds.filter((r) => !floorFailedIn(r));
	const counted = judged.length > 0 ? judged : rounds;
	const median = (pick: (r: Round) => number) => medianOf(counted.map(pick));
	const failedFloors = rounds.filter(floorFailedIn).map((r) => {
		// only what failed is named
		const failures = [
			r.floor.unavailable > 0 ? `answered 503 ${r.floor.unavailable} times` : '',
			r.floor.tally.lost > 0 ? `lost ${r.floor.tally.lost} changes` : '',
		].filter(Boolean);
		return `${r.label}: the floor itself ${failures.join(' and ')}`;
	});
	const leftOut = failedFloors.length > 0 ? `left out: ${failedFloors.join('; ')}` : '';
	// no verdict only when every round's floor failed
	const floorFailed = judged.length === 0 ? failedFloors.join('; ') : '';
	console.log('\n──────── bench P6: CRM Trigger vs the floors (queue mode) ────────');
	console.log(
		`${ctx.stack}; n8n settings: DB_POSTGRESDB_POOL_SIZE ${ctx.settings.dbPool}, N8N_EXPRESSION_ENGINE ${ctx.settings.expressionEngine}; the CRM sends each delivery once`,
	);
	const counts = (x: Pick<Side, 'timeouts' | 'unavailable' | 'unanswered'>) =>
		`${x.timeouts} answers past the CRM's ${CRM_TIMEOUT_MS / 1000} s, ${x.unavailable} answered 503, ${x.unanswered} unanswered`;
	const verdict = (r: number) => (r <= BENCH_TARGET ? '✓' : '✗');
	const show = (r: (k: Figure) => number, judged: boolean) =>
		FIGURES.map((k) => `${k} ${r(k).toFixed(2)}×${judged ? ` ${verdict(r(k))}` : ''}`).join(', ');
	for (const round of rounds) {
		console.log(`${round.label} (n8n's deduplication store after it: ${round.store}):`);
		for (const x of [round.crm, round.floor, round.hook]) {
			const t = x.tally;
			console.log(
				`${x.name}: ${t.changes} changes in ${x.deliveries} deliveries, lost ${t.lost}, doubled ${t.doubled}; ${perSecond(t).toFixed(1)} changes/s end to end over ${secs(t.lastFinished - t.firstChange)} s; ` +
					`latency p50 ${secs(p(t, 50))} s, p95 ${secs(p(t, 95))} s; answer p50 ${percentile(x.answers, 50)} ms, p95 ${percentile(x.answers, 95)} ms (${counts(x)}); ` +
					`${x.db.executions} executions: data ${(x.db.avgBytes / 1024).toFixed(1)} kB avg, queue wait p50 ${x.db.waitMs.toFixed(0)} ms, run p50 ${x.db.runMs.toFixed(0)} ms` +
					`\n    ${x.trouble}`,
			);
		}
		console.log(
			`ratios CRM Trigger ÷ community-trigger floor: ${show((k) => ratio(round.crm, round.floor, k), true)}`,
		);
		console.log(
			`ratios CRM Trigger ÷ n8n Webhook node (beside it): ${show((k) => ratio(round.crm, round.hook, k), false)}`,
		);
	}
	const ofRounds = counted.length > 1 ? `, median of ${counted.length} rounds` : '';
	console.log(
		`ratios CRM Trigger ÷ community-trigger floor${ofRounds} (target ≤ ${BENCH_TARGET}${floorFailed ? `; no verdict: ${floorFailed}` : leftOut ? `; ${leftOut}` : ''}): ` +
			show((k) => median((r) => ratio(r.crm, r.floor, k)), !floorFailed),
	);
	console.log(
		`ratios CRM Trigger ÷ n8n Webhook node${ofRounds} (beside it): ${show((k) => median((r) => ratio(r.crm, r.hook, k)), false)}`,
	);

	const sum = (pick: (r: Round) => number) => rounds.reduce((n, r) => n + pick(r), 0);
	const crmCounts = {
		timeouts: sum((r) => r.crm.timeouts),
		unavailable: sum((r) => r.crm.unavailable),
		unanswered: sum((r) => r.crm.unanswered),
		lost: sum((r) => r.crm.tally.lost),
		doubled: sum((r) => r.crm.tally.doubled),
	};
	const burst =
		`${ctx.changes} changes in ${rounds[0].crm.deliveries} deliveries of 100, the CRM sending each once` +
		(rounds.length > 1
			? `; the median of ${counted.length < rounds.length ? `${counted.length} of ` : ''}${rounds.length} rounds, each on deals of its own`
			: '');
	const settingsText = `DB_POSTGRESDB_POOL_SIZE ${ctx.settings.dbPool}, N8N_EXPRESSION_ENGINE ${ctx.settings.expressionEngine}`;
	const floorText = `community-trigger floor: a credentialed trigger node whose webhook() returns the body as one item per record id, fed the same delivery bodies → the same Filter → Set; ${settingsText}`;
	const lostText =
		(crmCounts.lost
			? `${crmCounts.lost} of ${allChanges} changes in no successful execution; `
			: '') + (crmCounts.doubled ? `${crmCounts.doubled} in two successful executions; ` : '');
	const row = (figure: string, k: Figure, format: (v: number) => string, extra = '') => {
		const toFloor = counted.map((r) => ratio(r.crm, r.floor, k));
		const perRound =
			rounds.length > 1
				? `; the rounds: ${rounds.map((r) => `${ratio(r.crm, r.floor, k).toFixed(2)}×${counted.includes(r) ? '' : ' (left out)'}`).join(', ')}`
				: '';
		return {
			id: 'P6',
			figure: `CRM Trigger in queue mode, ${figure} (${burst})`,
			node: `${format(median((r) => figures(r.crm)[k]))}${extra}`,
			baseline:
				`${format(median((r) => figures(r.floor)[k]))} (${floorText}; n8n Webhook node ` +
				`${format(median((r) => figures(r.hook)[k]))}, ratio to it ${median((r) => ratio(r.crm, r.hook, k)).toFixed(2)}×${perRound})`,
			ratio: medianOf(toFloor),
			target: floorFailed
				? `≤ ${BENCH_TARGET} (no verdict: ${floorFailed})`
				: `≤ ${BENCH_TARGET}${leftOut ? ` (${leftOut})` : ''}`,
			// a floor that itself answered 503 or lost changes is no floor: the ratio to it judges nothing
			ok: floorFailed ? undefined : medianOf(toFloor) <= BENCH_TARGET,
		};
	};
	const ms = (v: number) => `${v} ms`;
	const s = (v: number) => `${secs(v)} s`;
	const rows = [
		row(
			'answer to the CRM p50, uncensored',
			'answerP50',
			ms,
			` (${lostText}${counts(crmCounts)}${rounds.length > 1 ? `, in the ${rounds.length} rounds` : ''})`,
		),
		row('answer to the CRM p95, uncensored', 'answerP95', ms),
		row('change → execution finished p50', 'p50', s),
		row('change → execution finished p95', 'p95', s),
		row(
			'changes/s end to end, first change → last execution finished (ratio = floor ÷ CRM Trigger, i.e. time per change)',
			'rate',
			(v) => `${v.toFixed(1)} changes/s`,
		),
		{
			id: 'P6',
			figure: 'CRM Trigger in queue mode: execution data per execution (execution_data, average)',
			node: `${(median((r) => r.crm.db.avgBytes) / 1024).toFixed(1)} kB (${rounds[0].crm.db.executions} executions: 100 Full Records items each)`,
			baseline: `${(median((r) => r.floor.db.avgBytes) / 1024).toFixed(1)} kB (${rounds[0].floor.db.executions} executions of the community-trigger floor: one item, the delivery)`,
			ratio: median((r) => r.crm.db.avgBytes / r.floor.db.avgBytes),
		},
	];
	const result = {
		measured: new Date().toISOString(),
		commit: BUILT_FROM,
		command:
			`npm run bench:queue -- --changes ${ctx.changes}` +
			(ctx.rounds !== BENCH_DEFAULT_ROUNDS ? ` --rounds ${ctx.rounds}` : '') +
			(ctx.settings.dbPool !== 2 ? ` --db-pool ${ctx.settings.dbPool}` : '') +
			(ctx.settings.expressionEngine !== 'vm'
				? ` --expression-engine ${ctx.settings.expressionEngine}`
				: ''),
		stack: ctx.stack,
		settings: ctx.settings,
		rounds: ctx.rounds,
		rows,
		counts: Object.fromEntries(
			(['crm', 'floor', 'hook'] as const).map((k) => [
				rounds[0][k].name,
				{
					timeouts: sum((r) => r[k].timeouts),
					answered503: sum((r) => r[k].unavailable),
					unanswered: sum((r) => r[k].unanswered),
					lost: sum((r) => r[k].tally.lost),
					doubled: sum((r) => r[k].tally.doubled),
				},
			]),
		),
		notes: [
			`P6: the queue-mode stack of \`npm run test:scale\` (scripts/scale.mts, --bench-trigger; scripts/scale/bench-trigger.mts), the CRM sending each delivery once (retry policy none). (a) ${ctx.changes} deal edits through the sandbox's REST API, 100 per request as fast as it takes them: the sandbox sends one delivery per request to the CRM Trigger workflow (Deals edit, Full Records → Filter "Stage changed?" → Set). ` +
				`(b) the floor the target is set against: the very bodies of those deliveries, POSTed by the script on the same schedule, to a trigger node of a custom package with the CRM credential attached whose webhook() returns the body as one item per record id (bench/floor-trigger, not shipped), followed by the same Filter and Set nodes, through the same proxy, webhook process and 2 workers. (c) the same bodies to n8n's own Webhook node (POST, responds immediately), which n8n spares the start node's expression isolate and the credential check: printed beside. ` +
				`${ctx.rounds} round(s) of (a), (b), (c), each on deals of its own; a figure is the median of the rounds, a ratio the median of the rounds' ratios (each taken within its round). ` +
				"Answer = arrival at the proxy in front of the webhook process → n8n's status line, uncensored (a request whose body was whole goes on after the CRM stops waiting); timeouts and 503s are counted. Latency from the executions' stoppedAt in PostgreSQL: (a) change made → execution finished, (b, c) delivery sent → execution finished; changes/s = changes ÷ (first change → last execution finished). " +
				`A warm-up of ${BENCH_WARMUP_BATCHES} deliveries through all three first; execution data = octet_length of execution_data.data.`,
			...rounds.map(
				(r) =>
					`P6, what the last run saw (${r.label}): CRM Trigger: ${r.crm.trouble}. Community-trigger floor: ${r.floor.trouble}. n8n Webhook: ${r.hook.trouble}. n8n's deduplication store after it: ${r.store}.`,
			),
		],
	};
	const out = path.join(
		REPO,
		'bench',
		ctx.settings.dbPool === 2 && ctx.settings.expressionEngine === 'vm'
			? 'queue-mode.json'
			: `queue-mode-pool${ctx.settings.dbPool}-${ctx.settings.expressionEngine}.json`,
	);
	writeFileSync(out, `${JSON.stringify(result, null, '\t')}\n`);
	log(
		`${path.relative(REPO, out)} written (\`npm run bench\` merges bench/queue-mode.json into bench/results.md)`,
	);

	for (const { label, crm, floor, hook } of rounds) {
		const a = crm.tally;
		ctx.check(
			a.lost === 0 && a.doubled === 0,
			`P6 (a), ${label}: every change in exactly one successful CRM Trigger execution, the CRM sending once (lost ${a.lost}, doubled ${a.doubled})`,
		);
		ctx.check(
			crm.timeouts === 0 && crm.unavailable === 0 && crm.unanswered === 0,
			`P6 (a), ${label}: every delivery answered 2xx inside the CRM's ${CRM_TIMEOUT_MS / 1000} s (${counts(crm)})`,
		);
		for (const x of [floor, hook])
			ctx.check(
				x.tally.lost === 0 && x.tally.doubled === 0,
				`P6 ${x.name}, ${label}: every change of the replayed bodies in exactly one successful execution (lost ${x.tally.lost}, doubled ${x.tally.doubled})`,
			);
	}
	ctx.check(
		copyStatuses.every((st) => st === 200) && ranAgain.length === 0,
		`P6 (a): after ${allChanges} changes, a copy of the last burst's first delivery (${secs(copyAge)} s old) is taken (answered ${copyStatuses.join(', ')}) and runs no change again (${ranAgain.length} execution(s) did)`,
	);
	const notOk = [...ctx.executions.values()].filter(
		(e) =>
			e.id > beforeBurst &&
			Object.values(ctx.workflows).includes(e.workflowId) &&
			e.status !== 'success',
	);
	ctx.check(
		notOk.length === 0,
		`P6: every execution of the bursts succeeded (${notOk.map((e) => `${e.id}: ${e.status}`).join(', ') || 'none other'})`,
	);
}

async function waitUntil(
	what: string,
	timeoutMs: number,
	probe: () => Promise<boolean>,
): Promise<void> {
	const start = Date.now();
	for (;;) {
		if (await probe().catch(() => false)) return;
		if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await sleep(500);
	}
}
