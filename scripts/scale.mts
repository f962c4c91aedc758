// `npm run test:scale`: the package in n8n's queue mode, at scale, with faults.
//
// It starts, on this machine and with nothing done by hand: a private PostgreSQL cluster and a Redis
// (installed with apt-get when missing) on free loopback ports, the CRM sandbox (in this process, with
// the §7 API limits and the §2.1 token issuance limits on), a round-robin load balancer in front of the
// webhook processes (scale/proxy.mts), and the pinned n8n runtime of `npm start` in queue mode with
// durable poll cursors: 1 main, 2 webhook processes (the second behind the balancer in one phase
// only), 2 workers, the packed package installed into every process's user folder as the Community
// Nodes panel does. One credential is imported from a real code grant, and three workflows are published:
//   - "deal stage": CRM Trigger on Deals edit (Full Records) → Stage changed? → Stage change;
//   - "new leads": CRM Trigger on Leads create (Full Records) → CRM Record Update of each lead;
//   - "deals updated (polling)": CRM Polling Trigger on Deals updates, every minute (scale/polling.mts).
// Then it makes `--changes` record changes through the sandbox's REST API, as fast as the sandbox
// takes them (deal updates 100 per request, lead creates 25 per request), the CRM sending each
// delivery once, in ten phases: steady; `kill -9` of a worker (and a replacement); a restart of the
// webhook process; delivery faults of the sandbox (lost answers, duplicates); every access token
// expired mid-burst; two webhook processes behind the balancer with duplicate and concurrent-duplicate
// deliveries; `kill -9` of main inside a poll (and a restart); `kill -9` of the webhook process
// mid-burst; every n8n process down for a minute; the webhook process starved past the CRM's timeout.
// Then a burst phase: `--burst` deliveries of 100 deal edits at once (50: 5,000 changes beyond
// `--changes`), with duplicate and concurrent-duplicate deliveries. The fault phases pace
// their requests, 250 ms apart, so that deliveries keep arriving during the fault. It reads every
// execution from PostgreSQL (n8n's flatted execution data) and checks that each change is in exactly
// one successful execution of the instant trigger (record id + Modified_Time / Created_Time), that
// each deal's last change is in exactly one polling execution, that both workers ran executions,
// that every execution succeeded, and that n8n's writes reached the sandbox exactly once. It prints
// throughput, latency (change → execution finished), the 429s of the API limits, the token calls per
// process (scale/observe.mts), the peak RSS of every n8n process and its task runner, then
// `N passed, M failed`; the exit code is non-zero on any failure. Everything it starts is stopped,
// also on errors and on SIGINT/SIGTERM.
//
// This file is the top-level sequence (stack, then the bench or the phases, then the report, then the
// count and exit code); the parts live in scripts/scale/: options.mts (argv, the run's constants),
// stack.mts (the queue-mode stack, one object the phases and the report use), phases.mts, report.mts,
// executions.mts (n8n's executions read from PostgreSQL, the tally), n8n.mts (n8n's environment,
// readiness, peak memory), services.mts (PostgreSQL, Redis), processes.mts (start, stop, leftovers,
// clean-up), workflows.mts, checks.mts, and observe.mts, polling.mts, proxy.mts, bench-trigger.mts.
//
//   npm run test:scale                          10,000 changes (4–6 min on 2 cores after the first n8n install)
//   npm run test:scale -- --changes 500 --no-build
//   options: --no-faults (steady phases only), --verbose (echo n8n's logs)
//
//   npm run bench:queue                         (= test:scale --bench-trigger) bench row P6 instead of the phases:
//   the same stack, the CRM Trigger workflow against n8n's floor, a plain Webhook workflow fed the same
//   delivery bodies; writes bench/queue-mode.json (scale/bench-trigger.mts)
import { N8N_VERSION } from './n8n-runtime.mts';
import { FLOOR_PATH, benchTrigger } from './scale/bench-trigger.mts';
import { check, checks } from './scale/checks.mts';
import { executions, readExecutions, tally } from './scale/executions.mts';
import type { Change } from './scale/executions.mts';
import {
	BENCH,
	CHANGES,
	DB_POOL,
	EXPRESSION_ENGINE,
	FLOOR_TRIGGER_WEBHOOK_ID,
	P,
	ROUNDS,
	RUN_DIR,
	WF,
	log,
	secs,
} from './scale/options.mts';
import { runPhases } from './scale/phases.mts';
import { cleanup, interrupted, readFrom, stopOnSignals } from './scale/processes.mts';
import { report } from './scale/report.mts';
import { startQueueStack } from './scale/stack.mts';

stopOnSignals();

// ---- the run ----------------------------------------------------------------------------------------

async function main(): Promise<void> {
	const stack = await startQueueStack();
	if (BENCH) {
		const { channels, crm, dealIds, deliveriesOf, pg, pgInfo, proxy, publishStart, redis, sb } =
			stack;
		log(
			`both workflows published (CRM Trigger → ${new URL(channels[0].notify_url).host}, floor Webhook /webhook/${FLOOR_PATH}) in ${secs(Date.now() - publishStart)} s`,
		);
		const floorUrl = `http://127.0.0.1:${P.proxy}/webhook/${FLOOR_PATH}`;
		const floorTriggerUrl = `http://127.0.0.1:${P.proxy}/webhook/${FLOOR_TRIGGER_WEBHOOK_ID}/webhook`;
		await benchTrigger({
			changes: CHANGES,
			rounds: ROUNDS,
			dealIds,
			crm,
			deliveries: () => deliveriesOf(sb.sandbox)?.log ?? [],
			floorUrl,
			floorTriggerUrl,
			answers: proxy.answers,
			settings: { dbPool: DB_POOL || 2, expressionEngine: EXPRESSION_ENGINE ?? 'vm' },
			refresh: () => readExecutions(pg),
			executions,
			tally: (list, workflowId) => tally(list as Change[], new Set([workflowId])),
			pg,
			workflows: { crm: WF.deals.id, floor: WF.floor.id, floorTrigger: WF.floorTrigger.id },
			log,
			check,
			requests: () => sb.sandbox.requests,
			webhookLog: () => readFrom(stack.webhook.log, stack.webhook.logStart),
			runDir: RUN_DIR,
			server: sb.server,
			webhookReadyUrl: `http://127.0.0.1:${P.webhook}/healthz/readiness`,
			stack: `n8n ${N8N_VERSION}, queue mode: main + webhook process (behind the round-robin proxy) + 2 workers (concurrency 5) · PostgreSQL ${pgInfo.version} · Redis ${redis.version} · Node ${process.versions.node}`,
		});
		return;
	}
	const run = await runPhases(stack);
	await report(stack, run);
}

async function finish(error?: unknown): Promise<never> {
	if (error && !interrupted) {
		console.error(
			`\ntest:scale failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
		);
		checks.push({ ok: false, text: 'the run completed' });
	}
	await cleanup();
	const failed = checks.filter((c) => !c.ok).length;
	console.log(`${checks.length - failed} passed, ${failed} failed`);
	process.exit(failed === 0 && checks.length > 0 ? 0 : 1);
}

main().then(
	() => finish(),
	(error) => finish(error),
);
