// The options of `npm run test:scale` (argv), the run's constants (ports, phases, workflows), and its
// log clock.
import path from 'node:path';

import { REPO } from '../n8n-runtime.mts';
import { BENCH_DEFAULT_CHANGES, BENCH_DEFAULT_ROUNDS } from './bench-trigger.mts';

// ---- options ------------------------------------------------------------------------------------

export const argv = process.argv.slice(2);
export const flag = (name: string) => argv.includes(name);
export const option = (name: string, fallback: number) => {
	const i = argv.indexOf(name);
	return i >= 0 && argv[i + 1] !== undefined ? Number(argv[i + 1]) : fallback;
};
if (flag('--help') || flag('-h')) {
	console.log(
		'npm run test:scale [-- --changes 10000] [--burst 50] [--no-build] [--no-faults] [--durable-cursors-off] [--verbose] [--bench-trigger [--rounds 3]]',
	);
	process.exit(0);
}
/** --bench-trigger: bench row P6 (CRM Trigger against a plain n8n Webhook) instead of the phases */
export const BENCH = flag('--bench-trigger');
export const CHANGES = option(
	'--changes',
	Number(process.env.SCALE_CHANGES ?? (BENCH ? BENCH_DEFAULT_CHANGES : 10_000)),
);
/**
 * --bench-trigger --rounds N: the burst of --changes, and both floors after it, N times over fresh
 * deals; P6 reports each round and the median: the floor of one run has moved by more than the
 * changes P6 should judge (265 to 467 changes/s across single runs)
 */
export const ROUNDS = option('--rounds', BENCH_DEFAULT_ROUNDS);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds must be an integer ≥ 1');
export const FAULTS = !flag('--no-faults');
export const VERBOSE = flag('--verbose');
/** --durable-cursors-off: the polling trigger without n8n's durable poll cursors, to measure what is lost or doubled then */
export const DURABLE_CURSORS = !flag('--durable-cursors-off');
if (!Number.isInteger(CHANGES) || CHANGES < 40)
	throw new Error('--changes must be an integer ≥ 40');
/**
 * --burst N: the last phase sends N deliveries of 100 deal edits at once (one PUT of 100 deals each, as
 * fast as the sandbox takes them), beyond --changes; 0: no burst phase
 */
export const BURST = option('--burst', 50);
if (!Number.isInteger(BURST) || BURST < 0) throw new Error('--burst must be an integer ≥ 0');
/** operators' settings (docs/production.md measures both): n8n's database pool per process and its expression engine */
export const DB_POOL = option('--db-pool', 0);
export const EXPRESSION_ENGINE = (() => {
	const i = argv.indexOf('--expression-engine');
	return i >= 0 ? argv[i + 1] : undefined;
})();
if (EXPRESSION_ENGINE !== undefined && !['vm', 'legacy', 'quickjs'].includes(EXPRESSION_ENGINE))
	throw new Error('--expression-engine must be vm, legacy or quickjs');

/** logs and evidence of the last run (git-ignored) */
export const RUN_DIR = path.join(REPO, '.scale-run');
/**
 * Database files, n8n user folders (with the installed package and n8n's asset cache): in a temporary
 * folder outside the repository, so that no tool that walks the checkout (lint) trips over them;
 * removed at the end of the run.
 */
export let STATE_DIR = '';
export function setStateDir(dir: string): void {
	STATE_DIR = dir;
}
export const PORTS = {
	main: Number(process.env.SCALE_N8N_PORT ?? 5700),
	sandbox: Number(process.env.SCALE_SANDBOX_PORT ?? 4100),
};
// every port of the n8n processes and of the proxy derives from the main port (5700–5719 by default)
export const P = {
	main: PORTS.main,
	webhook: PORTS.main + 1,
	health: [PORTS.main + 2, PORTS.main + 3, PORTS.main + 4],
	/** the round-robin load balancer in front of the webhook processes: the URL the CRM Trigger registers */
	proxy: PORTS.main + 5,
	webhook2: PORTS.main + 6,
	broker: {
		main: PORTS.main + 10,
		workers: [PORTS.main + 11, PORTS.main + 12, PORTS.main + 13],
		webhook: PORTS.main + 14,
		cli: PORTS.main + 15,
		webhook2: PORTS.main + 16,
	},
};
export const UPDATE_BATCH = 100;
export const CREATE_BATCH = 25;
/**
 * The CRM at its least forgiving: it sends each delivery once (the sandbox's policy `none`;
 * docs/protocol.md §9.5 promises no re-send). A delivery no n8n process answered in time is gone,
 * and the CRM Trigger's catch-up must bring its changes.
 */
export const DELIVERY_RETRY_POLICY = 'none';
/** the CRM Trigger's catch-up in the scale workflows: every minute (the shortest the node offers) */
export const CATCH_UP_MINUTES = 1;
/**
 * How long a phase waits without progress (no change seen, no new CRM Trigger execution) before it
 * counts what is missing as lost: the catch-up reads changes once they are a minute old
 * (SETTLE_MS), at its next minute, then runs them.
 */
export const CATCH_UP_PATIENCE_MS = 150_000;
export const PHASE_SETTLE_CAP_MS = 360_000;
/** the polling trigger polls every minute: this long without a new emit means it has nothing more to read */
export const POLL_PATIENCE_MS = 150_000;
/** the edition whose §7 concurrency limit the sandbox applies to n8n's client application */
export const API_EDITION = 'Standard';
/** pause between two requests of the kill and restart phases (the other phases go as fast as the sandbox takes them) */
export const FAULT_PHASE_PACE_MS = 250;
/** the phases with a fault, in order (with --no-faults every phase is steady) */
export const PHASE = {
	steady: 0,
	kill: 1,
	restart: 2,
	faults: 3,
	token: 4,
	twoWebhooks: 5,
	killMain: 6,
	killWebhook: 7,
	allDown: 8,
	starved: 9,
	/** after the ten phases, with or without faults: --burst deliveries of 100 changes at once */
	burst: 10,
};
/** phases that send a request every FAULT_PHASE_PACE_MS, so that deliveries keep arriving while the fault happens */
export const PACED = [PHASE.kill, PHASE.restart, PHASE.token, PHASE.killWebhook, PHASE.starved];
/** the all-down phase: how long every n8n process stays down while the changes go on */
export const ALL_DOWN_MS = 60_000;
/** the starved phase: how long the webhook process is stopped (SIGSTOP): past the CRM's 10 s timeout */
export const STARVED_MS = 15_000;
export const WF = {
	deals: { id: 'crmScaleDealEdit', name: 'CRM scale: deal stage changed', trigger: 'CRM Trigger' },
	leads: { id: 'crmScaleNewLeads', name: 'CRM scale: new leads → update', trigger: 'CRM Trigger' },
	polling: {
		id: 'crmScalePollDeals',
		name: 'CRM scale: deals updated (polling)',
		trigger: 'CRM Polling Trigger',
	},
	/** --bench-trigger only: n8n's own floor, a Webhook node fed the bodies the CRM sent, then the deals workflow's Filter and Set */
	floor: { id: 'crmScaleFloorHook', name: 'CRM scale: floor (n8n Webhook)', trigger: 'Webhook' },
	/**
	 * --bench-trigger only: the floor of a community trigger, a trigger node of a custom package with
	 * the CRM credential whose webhook() returns the body (bench/floor-trigger), then the same nodes
	 */
	floorTrigger: {
		id: 'crmScaleFloorTrig',
		name: 'CRM scale: floor (community trigger with a credential)',
		trigger: 'Floor Trigger',
	},
};
/** the floor trigger's URL: `webhook/<this>/webhook` */
export const FLOOR_TRIGGER_WEBHOOK_ID = 'f1002000-0000-4000-8000-000000000001';
/** where the bench's floor trigger node lives (loaded as a custom extension, never packed) */
export const FLOOR_NODE_DIR = path.join(REPO, 'bench', 'floor-trigger');
/** the workflows of the instant trigger (the polling one is counted on its own: scale/polling.mts) */
export const INSTANT = new Set([WF.deals.id, WF.leads.id]);
export const CREDENTIAL = { id: 'crmScaleOAuth2Cr', name: 'CRM sandbox (scale run)' };
/**
 * The polling workflow's own credential, of its own client application: the CRM Trigger's catch-up
 * reads the same COQL, so the polling trigger's calls are told apart by the client they come from
 */
export const POLL_CREDENTIAL = { id: 'crmScalePollCred', name: 'CRM sandbox (scale run, polling)' };
export const POLL_CLIENT = { clientId: 'n8n-scale-poll', clientSecret: 'n8n-scale-poll-secret' };
export const LEAD_NOTE = 'n8n scale run: ';
/** n8n's message for a job that stalled (its worker died) and is not run again */
export const STALLED = /failed to be processed too many times|stalled/i;
/** an execution that failed on §7's 429 after the package's retries */
export const TOO_MANY = /TOO_MANY_REQUESTS|concurrency limit|429/i;

export const started = Date.now();
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const secs = (ms: number) => (ms / 1000).toFixed(1);
export const log = (msg: string) =>
	console.log(`[${secs(Date.now() - started).padStart(6)} s] ${msg}`);
