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
//   npm run test:scale                          10,000 changes (4–6 min on 2 cores after the first n8n install)
//   npm run test:scale -- --changes 500 --no-build
//   options: --no-faults (steady phases only), --verbose (echo n8n's logs)
//
//   npm run bench:queue                         (= test:scale --bench-trigger) bench row P6 instead of the phases:
//   the same stack, the CRM Trigger workflow against n8n's floor, a plain Webhook workflow fed the same
//   delivery bodies; writes bench/queue-mode.json (scale/bench-trigger.mts)
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	ensureN8n,
	n8nLocalEnv,
	installPackageInto,
	N8N_VERSION,
	PACKAGE_NAME,
	REPO,
	run,
} from './n8n-runtime.mts';
import { codeGrant, N8nClient, OWNER } from './start.mts';
import {
	countBy,
	formatCounts,
	refusalsByOperation,
	watchRequestStarts,
	watchTokenCalls,
} from './scale/observe.mts';
import type { TokenCall } from './scale/observe.mts';
import { tallyPolling } from './scale/polling.mts';
import type { PollingEmit } from './scale/polling.mts';
import { startRoundRobinProxy } from './scale/proxy.mts';
import { benchTrigger, BENCH_WARMUP_BATCHES, FLOOR_PATH } from './scale/bench-trigger.mts';
import { check, checks } from './scale/checks.mts';
import { executions, percentile, readExecutions, tally, workerRuns } from './scale/executions.mts';
import type { Change, Execution, Tally } from './scale/executions.mts';
import { n8nEnv, peaks, sampleMemory, waitReady } from './scale/n8n.mts';
import type { N8nProc } from './scale/n8n.mts';
import {
	ALL_DOWN_MS,
	FLOOR_TRIGGER_WEBHOOK_ID,
	API_EDITION,
	BENCH,
	BURST,
	CATCH_UP_PATIENCE_MS,
	CHANGES,
	CREATE_BATCH,
	CREDENTIAL,
	DB_POOL,
	DELIVERY_RETRY_POLICY,
	DURABLE_CURSORS,
	EXPRESSION_ENGINE,
	FAULTS,
	FAULT_PHASE_PACE_MS,
	INSTANT,
	LEAD_NOTE,
	P,
	PACED,
	PHASE,
	PHASE_SETTLE_CAP_MS,
	POLL_CLIENT,
	POLL_CREDENTIAL,
	POLL_PATIENCE_MS,
	PORTS,
	RUN_DIR,
	STALLED,
	STARVED_MS,
	STATE_DIR,
	TOO_MANY,
	UPDATE_BATCH,
	WF,
	flag,
	log,
	secs,
	setStateDir,
	sleep,
	started,
} from './scale/options.mts';
import {
	PID_FILE,
	cleanup,
	cleanups,
	interrupted,
	portFree,
	procs,
	readFrom,
	savePids,
	startProc,
	stopLeftovers,
	stopOnSignals,
	stopProc,
	waitFor,
} from './scale/processes.mts';
import {
	aptInstall,
	ensureRedis,
	pgBinDir,
	pgClient,
	startPostgres,
	startRedis,
} from './scale/services.mts';
import { credentialScopes, workflows } from './scale/workflows.mts';

stopOnSignals();

// ---- the run ----------------------------------------------------------------------------------------

async function main(): Promise<void> {
	mkdirSync(RUN_DIR, { recursive: true });
	await stopLeftovers();
	rmSync(RUN_DIR, { recursive: true, force: true });
	mkdirSync(RUN_DIR, { recursive: true });
	setStateDir(mkdtempSync(path.join(os.tmpdir(), 'crm-scale-')));
	// PostgreSQL runs as its own user and must reach its data folder inside
	chmodSync(STATE_DIR, 0o755);
	savePids();
	cleanups.push({
		name: 'run state',
		fn: async () => {
			rmSync(STATE_DIR, { recursive: true, force: true });
			rmSync(PID_FILE, { force: true });
		},
	});
	log(
		`test:scale: ${CHANGES} record changes, n8n ${N8N_VERSION} in queue mode (main, 2 webhook processes, 2 workers), work folder ${path.relative(REPO, RUN_DIR)}/`,
	);

	for (const port of [
		P.main,
		P.webhook,
		P.webhook2,
		P.proxy,
		...P.health,
		P.broker.main,
		...P.broker.workers,
		P.broker.webhook,
		P.broker.webhook2,
		P.broker.cli,
		PORTS.sandbox,
	]) {
		if (!(await portFree(port)))
			throw new Error(
				`port ${port} is in use (set SCALE_N8N_PORT / SCALE_SANDBOX_PORT to move the run)`,
			);
	}

	if (!flag('--no-build')) {
		const t = Date.now();
		await run('npm', ['run', 'build'], { cwd: REPO, logFile: path.join(RUN_DIR, 'build.log') });
		log(`package built in ${secs(Date.now() - t)} s`);
	}
	const n8nBin = await ensureN8n(log);

	// services: installed one after the other when missing (one apt at a time), then started in parallel
	await ensureRedis();
	try {
		pgBinDir();
	} catch {
		await aptInstall('postgresql');
	}
	const [pgInfo, redis] = await Promise.all([startPostgres(), startRedis()]);
	const pg = pgClient(pgInfo.db);
	await pg.connect();
	cleanups.push({ name: 'PostgreSQL client', fn: () => pg.end() });

	// the CRM sandbox, in this process
	const { startSandbox } = (await import(path.join(REPO, 'sandbox', 'server.ts'))) as {
		startSandbox: (o: Record<string, unknown>) => Promise<{
			url: string;
			sandbox: any;
			server: import('node:http').Server;
			close(): Promise<void>;
		}>;
	};
	const { deliveriesOf } = (await import(path.join(REPO, 'sandbox', 'deliveries.ts'))) as {
		deliveriesOf: (s: unknown) => { log: any[] } | undefined;
	};
	const sandboxUrl = `http://127.0.0.1:${PORTS.sandbox}`;
	const sb = await startSandbox({
		port: PORTS.sandbox,
		host: '127.0.0.1',
		dbPath: ':memory:',
		publicOrigin: sandboxUrl,
		demo: false,
		deliveryTimeoutMs: 10_000,
		// as strict as the service (docs/protocol.md §7, §2.1): calls in flight per client application
		// (Standard edition: 10, which n8n's 10 execution slots plus the webhook processes can exceed),
		// at most 10 resource-intensive ones, and the token issuance limits
		apiLimits: { enabled: true, edition: API_EDITION, subConcurrency: 10 },
		oauthLimits: true,
		requestLogLimit: 1_000_000,
	});
	cleanups.push({ name: 'sandbox', fn: () => sb.close() });
	const policy = await fetch(`${sandboxUrl}/__sandbox/delivery-retries`, {
		method: 'PUT',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ policy: DELIVERY_RETRY_POLICY }),
	});
	if (policy.status !== 200) throw new Error(`delivery retry policy: HTTP ${policy.status}`);
	// who asks for tokens: n8n's processes by name (their connections, read from /proc), or this script
	const tokenCalls: TokenCall[] = watchTokenCalls(sb.server, PORTS.sandbox, () => {
		const live = new Map<number, string>([[process.pid, 'test:scale']]);
		for (const p of procs) if (!p.exited && p.name !== 'redis') live.set(p.pid, p.name);
		return live;
	});
	// the polling trigger's calls (COQL with the polling credential's token): when each began
	const { authenticate } = (await import(path.join(REPO, 'sandbox', 'auth.ts'))) as {
		authenticate: (sandbox: unknown, authorization: string | undefined) => { clientId: string };
	};
	const clientOf = (authorization: string | undefined) => {
		try {
			return authenticate(sb.sandbox, authorization).clientId;
		} catch {
			return undefined;
		}
	};
	const pollCallStarts = watchRequestStarts(
		sb.server,
		(req) =>
			(req.url ?? '').includes('/coql') &&
			clientOf(req.headers.authorization) === POLL_CLIENT.clientId,
	);
	const leadWrites = new Map<string, number>();
	sb.sandbox.store.onChange(
		(event: { module: string; operation: string; changes: Array<{ id: string }> }) => {
			if (event.module === 'Leads' && event.operation === 'update')
				for (const c of event.changes) leadWrites.set(c.id, (leadWrites.get(c.id) ?? 0) + 1);
		},
	);
	log(
		`CRM sandbox on ${sandboxUrl} (in memory; delivery retry policy "${DELIVERY_RETRY_POLICY}": each delivery sent once, never re-sent)`,
	);

	// the script's own token (a client application of its own, so its calls never use n8n's §7 slots)
	const mintToken = async () => {
		const res = await fetch(`${sandboxUrl}/__sandbox/tokens`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ scope: 'CRM.modules.ALL,CRM.notifications.ALL' }),
		});
		return ((await res.json()) as { access_token: string }).access_token;
	};
	let crmToken = await mintToken();
	const crm = async (
		method: string,
		p: string,
		body?: unknown,
	): Promise<{ status: number; body: any }> => {
		const res = await fetch(`${sandboxUrl}/crm/v2.1${p}`, {
			method,
			headers: {
				Authorization: `Bearer ${crmToken}`,
				...(body ? { 'Content-Type': 'application/json' } : {}),
			},
			body: body ? JSON.stringify(body) : undefined,
		});
		const text = await res.text();
		return { status: res.status, body: text ? JSON.parse(text) : undefined };
	};

	// n8n: one environment for every process, one user folder per process
	const encryptionKey = randomBytes(24).toString('hex');
	const editorUrl = `http://127.0.0.1:${P.main}`;
	const base: Record<string, string> = {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pgInfo.db.host,
		DB_POSTGRESDB_PORT: String(pgInfo.db.port),
		DB_POSTGRESDB_DATABASE: pgInfo.db.database,
		DB_POSTGRESDB_USER: pgInfo.db.user,
		DB_POSTGRESDB_PASSWORD: pgInfo.db.password,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		N8N_ENCRYPTION_KEY: encryptionKey,
		...n8nLocalEnv(editorUrl),
		// the URL the CRM Trigger registers: the load balancer in front of the webhook processes
		WEBHOOK_URL: `http://127.0.0.1:${P.proxy}/`,
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_LOG_LEVEL: 'info',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// a job of a killed worker shows up as stalled within ~25 s instead of ~90 s, and main's
		// recovery marks its execution crashed every 30 s instead of every 3 min: same behaviour, sooner
		QUEUE_WORKER_LOCK_DURATION: '15000',
		QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
		QUEUE_WORKER_STALLED_INTERVAL: '10000',
		N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '0.5',
		// durable poll cursors: a poll's cursor advances in the transaction that stores its execution
		// (--durable-cursors-off: n8n's defaults, all four off; the cursor then lives in static data)
		N8N_SCHEDULER_ENABLED: String(DURABLE_CURSORS),
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: String(DURABLE_CURSORS),
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: String(DURABLE_CURSORS),
		N8N_POLLER_DURABLE_CURSORS_ENABLED: String(DURABLE_CURSORS),
		...(DB_POOL > 0 ? { DB_POSTGRESDB_POOL_SIZE: String(DB_POOL) } : {}),
		...(EXPRESSION_ENGINE ? { N8N_EXPRESSION_ENGINE: EXPRESSION_ENGINE } : {}),
	};
	const folders = {
		main: 'main',
		webhook: 'webhook',
		'webhook-2': 'webhook-2',
		'worker-1': 'worker-1',
		'worker-2': 'worker-2',
		'worker-3': 'worker-3',
		cli: 'cli',
	};
	const folder = (name: keyof typeof folders) => path.join(STATE_DIR, 'n8n', folders[name]);
	const t0 = Date.now();
	const installed = await Promise.all(
		(Object.keys(folders) as Array<keyof typeof folders>).map(async (name) => {
			mkdirSync(folder(name), { recursive: true });
			return await installPackageInto(folder(name), () => undefined);
		}),
	);
	log(
		`${PACKAGE_NAME}@${installed[0].version} (npm pack) installed into ${installed.length} user folders (.n8n/nodes) in ${secs(Date.now() - t0)} s: ${Object.keys(folders).join(', ')}`,
	);

	// credential from a real authorization-code grant, then the workflows
	const scope = credentialScopes();
	const client = { clientId: 'n8n-scale', clientSecret: 'n8n-scale-secret' };
	// one credential per client application: the CRM Trigger's and CRM Record's, and the polling trigger's
	const credentialOf = async (
		credential: { id: string; name: string },
		app: { clientId: string; clientSecret: string },
	) => ({
		...credential,
		type: 'crmOAuth2Api',
		data: {
			environment: 'sandbox',
			sandboxUrl,
			accountsUrl: sandboxUrl,
			apiVariant: 'v2.1',
			// the fields of the credential form: token refreshes read the client through them
			crmScope: scope,
			crmClientId: app.clientId,
			crmClientSecret: app.clientSecret,
			oauthTokenData: await codeGrant(sandboxUrl, {
				...app,
				redirectUri: `${editorUrl}/rest/oauth2-credential/callback`,
				scope,
			}),
		},
	});
	const importDir = path.join(STATE_DIR, 'import');
	mkdirSync(path.join(importDir, 'workflows'), { recursive: true });
	writeFileSync(
		path.join(importDir, 'credentials.json'),
		JSON.stringify([
			await credentialOf(CREDENTIAL, client),
			await credentialOf(POLL_CREDENTIAL, POLL_CLIENT),
		]),
	);
	for (const wf of workflows())
		writeFileSync(path.join(importDir, 'workflows', `${wf.id}.json`), JSON.stringify(wf, null, 2));
	const cliEnv = n8nEnv(base, {
		N8N_USER_FOLDER: folder('cli'),
		N8N_RUNNERS_BROKER_PORT: String(P.broker.cli),
	});
	const cliLog = path.join(RUN_DIR, 'n8n-cli.log');
	let t = Date.now();
	await run(
		process.execPath,
		[n8nBin, 'import:credentials', `--input=${path.join(importDir, 'credentials.json')}`],
		{ cwd: folder('cli'), logFile: cliLog, env: cliEnv },
	);
	log(
		`n8n import:credentials (includes n8n's migrations on the empty database) in ${secs(Date.now() - t)} s`,
	);
	t = Date.now();
	await run(
		process.execPath,
		[n8nBin, 'import:workflow', '--separate', `--input=${path.join(importDir, 'workflows')}`],
		{ cwd: folder('cli'), logFile: cliLog, env: cliEnv },
	);
	log(`n8n import:workflow (${workflows().length} workflows) in ${secs(Date.now() - t)} s`);

	const startN8n = (
		name: string,
		role: N8nProc['role'],
		args: string[],
		per: Record<string, string>,
		userFolder: string,
	): N8nProc => {
		const env = n8nEnv(base, { N8N_USER_FOLDER: userFolder, ...per });
		const proc = startProc(name, process.execPath, [n8nBin, ...args], {
			cwd: userFolder,
			env,
			log: path.join(RUN_DIR, `n8n-${name}.log`),
		}) as N8nProc;
		proc.role = role;
		proc.folder = userFolder;
		cleanups.push({ name, fn: () => stopProc(proc) });
		return proc;
	};
	const workerArgs = ['worker', '--concurrency=5'];
	const workerEnv = (i: number) => ({
		QUEUE_HEALTH_CHECK_PORT: String(P.health[i]),
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(P.broker.workers[i]),
	});
	const webhookArgs: [string, N8nProc['role'], string[], Record<string, string>, string] = [
		'webhook',
		'webhook',
		['webhook'],
		{ N8N_PORT: String(P.webhook), N8N_RUNNERS_BROKER_PORT: String(P.broker.webhook) },
		folder('webhook'),
	];
	// the load balancer sends to the first webhook process only, until the phase that adds the second
	const proxy = await startRoundRobinProxy(P.proxy, [P.webhook]);
	cleanups.push({ name: 'proxy', fn: () => proxy.close() });
	t = Date.now();
	const mainArgs: [string, N8nProc['role'], string[], Record<string, string>, string] = [
		'main',
		'main',
		['start'],
		{ N8N_PORT: String(P.main), N8N_RUNNERS_BROKER_PORT: String(P.broker.main) },
		folder('main'),
	];
	let mainProc = startN8n(...mainArgs);
	let webhook = startN8n(...webhookArgs);
	const webhook2Args: [string, N8nProc['role'], string[], Record<string, string>, string] = [
		'webhook-2',
		'webhook',
		['webhook'],
		{ N8N_PORT: String(P.webhook2), N8N_RUNNERS_BROKER_PORT: String(P.broker.webhook2) },
		folder('webhook-2'),
	];
	let webhook2 = startN8n(...webhook2Args);
	const worker1 = startN8n('worker-1', 'worker', workerArgs, workerEnv(0), folder('worker-1'));
	const worker2 = startN8n('worker-2', 'worker', workerArgs, workerEnv(1), folder('worker-2'));
	const workers: N8nProc[] = [worker1, worker2];
	const sampler = setInterval(sampleMemory, 1000);
	cleanups.push({ name: 'memory sampler', fn: async () => clearInterval(sampler) });
	await Promise.all([mainProc, webhook, webhook2, worker1, worker2].map((p) => waitReady(p)));
	log(
		`n8n main (:${P.main}), webhook processes (:${P.webhook}, :${P.webhook2}; load balancer :${P.proxy}) and 2 workers (concurrency 5 each) ready in ${secs(Date.now() - t)} s`,
	);

	// owner, login, publish both workflows
	const api = new N8nClient(editorUrl);
	const settings = await waitFor('n8n settings', 30_000, async () => {
		const res = await api.request<{ userManagement?: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/rest/settings',
		);
		return res.status === 200 && typeof res.data === 'object' ? res.data : undefined;
	});
	if (settings.userManagement?.showSetupOnFirstLoad !== false) {
		const res = await api.request('POST', '/rest/owner/setup', {
			email: OWNER.email,
			firstName: OWNER.firstName,
			lastName: OWNER.lastName,
			password: OWNER.password,
		});
		if (res.status !== 200)
			throw new Error(`owner setup failed: ${res.status} ${JSON.stringify(res.data)}`);
	}
	await api.login(OWNER.email, OWNER.password);

	// the deals the run edits: created before the trigger watches anything
	// --bench-trigger edits deals only: the burst and the warm-up before it
	const sharedUpdates = BENCH
		? CHANGES + BENCH_WARMUP_BATCHES * UPDATE_BATCH
		: Math.round(CHANGES * 0.9);
	const createsTotal = BENCH ? 0 : CHANGES - sharedUpdates;
	const burstUpdates = BENCH ? 0 : BURST * UPDATE_BATCH;
	const updatesTotal = sharedUpdates + burstUpdates;
	t = Date.now();
	const dealIds: string[] = [];
	for (let i = 0; i < updatesTotal; i += UPDATE_BATCH) {
		const data = Array.from({ length: Math.min(UPDATE_BATCH, updatesTotal - i) }, (_, k) => ({
			Deal_Name: `Scale deal ${i + k + 1}`,
			Stage: 'Qualification',
			Amount: 1000 + i + k,
		}));
		const res = await crm('POST', '/Deals', { data });
		if (res.status !== 201)
			throw new Error(
				`creating deals answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
			);
		for (const item of res.body.data) dealIds.push(String(item.details.id));
	}
	log(
		`${dealIds.length} deals created in the sandbox in ${secs(Date.now() - t)} s (the records the run edits)`,
	);

	t = Date.now();
	const published = BENCH
		? [WF.deals, WF.floor, WF.floorTrigger]
		: [WF.deals, WF.leads, WF.polling];
	for (const wf of published) {
		const got = await api.request<{ versionId: string }>('GET', `/rest/workflows/${wf.id}`);
		const res = await api.request<{ active?: boolean }>(
			'POST',
			`/rest/workflows/${wf.id}/activate`,
			{ versionId: got.data.versionId },
		);
		if (res.status !== 200 || !res.data.active)
			throw new Error(
				`publishing ${wf.name} failed: ${res.status} ${JSON.stringify(res.data).slice(0, 300)}`,
			);
	}
	const channelCount = BENCH ? 1 : 2;
	const channels = await waitFor(
		`${channelCount} watch channel(s) in the sandbox`,
		60_000,
		async () => {
			const res = await crm('GET', '/actions/watch');
			const list = (res.body?.watch ?? []) as Array<{
				channel_id: string;
				notify_url: string;
				events: string[];
			}>;
			return list.length >= channelCount ? list : undefined;
		},
	);
	// the webhook process answers the channels' URLs (401 to a forged delivery) once publication reached it
	for (const url of new Set(channels.map((c) => c.notify_url))) {
		await waitFor(`the webhook process to serve ${url}`, 90_000, async () => {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: '{}',
			});
			return res.status === 401 ? true : undefined;
		});
	}
	if (BENCH) {
		log(
			`both workflows published (CRM Trigger → ${new URL(channels[0].notify_url).host}, floor Webhook /webhook/${FLOOR_PATH}) in ${secs(Date.now() - t)} s`,
		);
		const floorUrl = `http://127.0.0.1:${P.proxy}/webhook/${FLOOR_PATH}`;
		const floorTriggerUrl = `http://127.0.0.1:${P.proxy}/webhook/${FLOOR_TRIGGER_WEBHOOK_ID}/webhook`;
		await benchTrigger({
			changes: CHANGES,
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
			webhookLog: () => readFrom(webhook.log, webhook.logStart),
			runDir: RUN_DIR,
			server: sb.server,
			webhookReadyUrl: `http://127.0.0.1:${P.webhook}/healthz/readiness`,
			stack: `n8n ${N8N_VERSION}, queue mode: main + webhook process (behind the round-robin proxy) + 2 workers (concurrency 5) · PostgreSQL ${pgInfo.version} · Redis ${redis.version} · Node ${process.versions.node}`,
		});
		return;
	}
	// the polling trigger's publishing poll sets its cursor to "now" (nothing before it is emitted).
	// The changes start right after it: with n8n's scheduler that poll's node static data is not
	// kept, so the deals changed before the first scheduled poll test where the node starts from then.
	// The publishing poll's calls are those until none has started for 2 s: a fixed wait after its
	// first call counted a slow publishing poll's last calls as the first scheduled poll's.
	await waitFor("the polling trigger's publishing poll (a COQL call)", 180_000, async () =>
		pollCallStarts.length > 0 ? true : undefined,
	);
	await waitFor('the end of the publishing poll (no COQL call for 2 s)', 60_000, () =>
		Date.now() - pollCallStarts[pollCallStarts.length - 1] >= 2000 ? true : undefined,
	);
	const publishingPollCalls = pollCallStarts.length;
	log(
		`all three workflows published; watch channels ${channels.map((c) => `${c.events.join('+')} → ${new URL(c.notify_url).host}`).join(', ')}; ready in ${secs(Date.now() - t)} s`,
	);

	// ---- phases ----
	const changes: Change[] = [];
	const deliveries = () => deliveriesOf(sb.sandbox)?.log ?? [];
	const phases = FAULTS
		? [
				'steady',
				'kill -9 of worker-1 (replacement worker-3 started)',
				'restart of the webhook process',
				'delivery faults (lost answers, duplicates)',
				'access token expired mid-burst (token issuance limits on)',
				'two webhook processes behind the round-robin proxy (duplicate and concurrent-duplicate deliveries)',
				'kill -9 of main during a poll (main restarted)',
				'kill -9 of the webhook process mid-burst (restarted)',
				`every n8n process down for ${ALL_DOWN_MS / 1000} s while the changes go on`,
				`the webhook process starved past the CRM's timeout (stopped for ${STARVED_MS / 1000} s)`,
			]
		: Array.from({ length: 10 }, () => 'steady');
	if (BURST > 0)
		phases.push(
			`a burst of ${BURST} deliveries of ${UPDATE_BATCH} deal edits at once (duplicate and concurrent-duplicate deliveries)`,
		);
	/** the phases among which --changes is shared (the burst phase's changes come on top) */
	const sharedPhases = BURST > 0 ? phases.length - 1 : phases.length;
	const phaseResults: Array<{
		name: string;
		tally: Tally;
		sendMs: number;
		deliveries: any[];
		note: string;
		settledMs: number;
		refusals: Map<string, number>;
		tokenCalls: TokenCall[];
	}> = [];
	let dealCursor = 0;
	let tokenExpiredAt = 0;
	let leadCounter = 0;
	const STAGES = [
		'Needs Analysis',
		'Value Proposition',
		'Identify Decision Makers',
		'Proposal/Price Quote',
	];

	for (let phase = 0; phase < phases.length; phase++) {
		const name = phases[phase];
		const burst = phase === PHASE.burst;
		const share = (total: number) =>
			Math.floor(total / sharedPhases) + (phase < total % sharedPhases ? 1 : 0);
		const updates = burst ? burstUpdates : share(sharedUpdates);
		const creates = burst ? 0 : share(createsTotal);
		const batches: Array<{ kind: 'update' | 'create'; size: number }> = [];
		const updateBatches = Math.ceil(updates / UPDATE_BATCH);
		const createBatches = Math.ceil(creates / CREATE_BATCH);
		const createBatch = (c: number) => ({
			kind: 'create' as const,
			size: Math.min(CREATE_BATCH, creates - c * CREATE_BATCH),
		});
		let c = 0;
		for (let u = 0; u < updateBatches; u++) {
			batches.push({ kind: 'update', size: Math.min(UPDATE_BATCH, updates - u * UPDATE_BATCH) });
			// the creates are spread over the phase
			while (c < createBatches && c < Math.round(((u + 1) * createBatches) / updateBatches))
				batches.push(createBatch(c++));
		}
		while (c < createBatches) batches.push(createBatch(c++));
		const firstDelivery = deliveries().length
			? deliveries()[deliveries().length - 1].delivery_id
			: 0;
		const firstRequest = sb.sandbox.requests.length;
		const firstTokenCall = tokenCalls.length;
		let note = '';
		let faultDone: Promise<void> = Promise.resolve();
		const faultPlan = async (plan: Record<string, unknown>) =>
			await fetch(`${sandboxUrl}/__sandbox/fault-plan`, {
				method: 'PUT',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(plan),
			});
		if (FAULTS && phase === PHASE.faults) {
			// the CRM's own answer timeout (10 s, docs/protocol.md §9.5): a shorter one measures how fast
			// n8n reads a request under a burst on this machine (n8n drops a request whose body the CRM
			// stopped sending before webhook() runs), not the package
			await faultPlan({
				lostResponseRate: 0.15,
				duplicateDeliveryRate: 0.1,
				concurrentDuplicateRate: 0.1,
				seed: 7,
			});
		}
		if (FAULTS && phase === PHASE.killMain) {
			// the polling trigger's COQL calls answer 4 s late, so that main can be killed inside a poll
			await faultPlan({ delayMs: 4000, pathIncludes: '/coql' });
		}
		if (FAULTS && phase === PHASE.twoWebhooks) {
			proxy.backends = [P.webhook, P.webhook2];
			proxy.forwarded.clear();
			await faultPlan({ duplicateDeliveryRate: 0.25, concurrentDuplicateRate: 0.25, seed: 11 });
		}
		if (burst) {
			// copies on top of the CRM's single attempts: a copy of a burst's delivery starts nothing
			await faultPlan({ duplicateDeliveryRate: 0.1, concurrentDuplicateRate: 0.1, seed: 13 });
		}
		log(
			`phase ${phase + 1}/${phases.length} — ${name}: ${updates} deal updates (${updateBatches} requests) + ${creates} lead creates (${createBatches} requests)`,
		);
		const phaseChanges: Change[] = [];
		const sendStart = Date.now();
		const faultAt = Math.max(1, Math.floor(batches.length * 0.3));
		const inFlight = () => {
			const runs = workerRuns([worker1]).get('worker-1')!;
			return [...runs.started].filter((id) => !runs.finished.has(id));
		};
		let killed = false;
		const killWorker = (running: number[]) => {
			// kill -9 while worker-1 has executions in flight, then start a replacement
			killed = true;
			process.kill(-worker1.pid, 'SIGKILL');
			const killedAt = Date.now();
			note = `kill -9 of worker-1 with ${running.length} execution(s) in flight (${running.join(', ') || 'none'})`;
			log(`  ${note}`);
			const worker3 = startN8n('worker-3', 'worker', workerArgs, workerEnv(2), folder('worker-3'));
			workers.push(worker3);
			faultDone = waitReady(worker3).then(() => {
				note += `; worker-3 ready ${secs(Date.now() - killedAt)} s after the kill`;
				log(`  worker-3 ready ${secs(Date.now() - killedAt)} s after the kill`);
			});
		};
		for (let b = 0; b < batches.length; b++) {
			if (interrupted) throw new Error('interrupted');
			if (FAULTS && phase === PHASE.kill && !killed && b >= faultAt) {
				const running = inFlight();
				if (running.length > 0) killWorker(running);
			}
			if (FAULTS && b === faultAt && phase === PHASE.token) {
				// every access token n8n holds stops working at once, in the middle of the burst
				const res = await fetch(`${sandboxUrl}/__sandbox/tokens/expire`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: '{}',
				});
				const { expired } = (await res.json()) as { expired: number };
				crmToken = await mintToken();
				tokenExpiredAt = Date.now();
				note = `${expired} access token(s) expired at request ${b + 1} of ${batches.length}`;
				log(`  ${note}`);
			}
			if (FAULTS && b === faultAt && phase === PHASE.restart) {
				const restartAt = Date.now();
				log('  restarting the webhook process (SIGTERM, then a new `n8n webhook`)…');
				faultDone = (async () => {
					await stopProc(webhook);
					const downAt = Date.now();
					webhook = startN8n(...webhookArgs);
					await waitReady(webhook);
					note = `webhook process stopped in ${secs(downAt - restartAt)} s, back ${secs(Date.now() - restartAt)} s after SIGTERM`;
					log(`  ${note}`);
				})();
			}
			if (FAULTS && b === faultAt && phase === PHASE.killWebhook) {
				// a crash: the CRM's deliveries in flight and until the new process listens are gone (sent once)
				const killedAt = Date.now();
				process.kill(-webhook.pid, 'SIGKILL');
				log('  kill -9 of the webhook process; starting a new one…');
				faultDone = (async () => {
					webhook = startN8n(...webhookArgs);
					await waitReady(webhook);
					note = `kill -9 of the webhook process at request ${b + 1} of ${batches.length}; a new one ready ${secs(Date.now() - killedAt)} s later`;
					log(`  ${note}`);
				})();
			}
			if (FAULTS && b === 0 && phase === PHASE.allDown) {
				const downAt = Date.now();
				log(`  stopping every n8n process for ${ALL_DOWN_MS / 1000} s…`);
				const live = [mainProc, webhook, webhook2, ...workers].filter((p) => !p.exited);
				await Promise.all(live.map((p) => stopProc(p)));
				faultDone = (async () => {
					await sleep(Math.max(0, downAt + ALL_DOWN_MS - Date.now()));
					const upAt = Date.now();
					mainProc = startN8n(...mainArgs);
					webhook = startN8n(...webhookArgs);
					webhook2 = startN8n(...webhook2Args);
					const restarted = live
						.filter((p) => p.role === 'worker')
						.map((p, i) =>
							startN8n(`${p.name}-again`, 'worker', workerArgs, workerEnv(i), p.folder),
						);
					workers.push(...restarted);
					await Promise.all([mainProc, webhook, webhook2, ...restarted].map((p) => waitReady(p)));
					await api.login(OWNER.email, OWNER.password);
					note = `every n8n process (${live.map((p) => p.name).join(', ')}) down ${secs(upAt - downAt)} s; all ready again ${secs(Date.now() - upAt)} s after the restart`;
					log(`  ${note}`);
				})();
			}
			if (FAULTS && b === faultAt && phase === PHASE.starved) {
				// the webhook process gets no CPU past the CRM's timeout (as under a starving burst): its
				// connections are accepted by the kernel, then answered late or never
				process.kill(-webhook.pid, 'SIGSTOP');
				log(`  webhook process stopped (SIGSTOP) for ${STARVED_MS / 1000} s…`);
				faultDone = (async () => {
					await sleep(STARVED_MS);
					process.kill(-webhook.pid, 'SIGCONT');
					note = `webhook process stopped (SIGSTOP) for ${STARVED_MS / 1000} s at request ${b + 1} of ${batches.length}`;
					log(`  ${note}`);
				})();
			}
			// the fault phases pace their requests, so that deliveries keep arriving while the fault happens
			if (FAULTS && PACED.includes(phase) && b > 0) await sleep(FAULT_PHASE_PACE_MS);
			// with every process down, the phase's changes are spread over the time they are down
			if (FAULTS && phase === PHASE.allDown && b > 0)
				await sleep(ALL_DOWN_MS / (batches.length + 1));
			const batch = batches[b];
			if (batch.kind === 'update') {
				const ids = dealIds.slice(dealCursor, dealCursor + batch.size);
				dealCursor += batch.size;
				const stage = STAGES[phase % STAGES.length];
				const res = await crm('PUT', '/Deals', {
					data: ids.map((id) => ({ id, Stage: stage, Description: `scale phase ${phase + 1}` })),
				});
				const at = Date.now();
				if (res.status !== 200)
					throw new Error(
						`updating deals answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
					);
				for (const item of res.body.data) {
					if (item.status !== 'success')
						throw new Error(`deal update refused: ${JSON.stringify(item)}`);
					phaseChanges.push({
						id: String(item.details.id),
						module: 'Deals',
						time: item.details.Modified_Time,
						at,
						phase,
					});
				}
			} else {
				const data = Array.from({ length: batch.size }, () => ({
					Last_Name: `Scale lead ${++leadCounter}`,
					Company: 'Scale Co',
					Email: `lead${leadCounter}@scale.example`,
				}));
				const res = await crm('POST', '/Leads', { data });
				const at = Date.now();
				if (res.status !== 201)
					throw new Error(
						`creating leads answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
					);
				for (const item of res.body.data)
					phaseChanges.push({
						id: String(item.details.id),
						module: 'Leads',
						time: item.details.Created_Time,
						at,
						phase,
					});
			}
		}
		const sendMs = Date.now() - sendStart;
		changes.push(...phaseChanges);
		if (FAULTS && phase === PHASE.kill && !killed) {
			// the changes went in faster than worker-1 picked up work: kill it at its first execution in flight
			killWorker(
				await waitFor('worker-1 to run an execution', 30_000, () =>
					inFlight().length > 0 ? inFlight() : undefined,
				).catch(() => []),
			);
		}
		log(
			`  ${phaseChanges.length} changes made in ${secs(sendMs)} s (${(phaseChanges.length / (sendMs / 1000)).toFixed(0)} changes/s through the sandbox API); waiting for n8n…`,
		);
		if (FAULTS && phase === PHASE.killMain) {
			faultDone = (async () => {
				// the first poll that reads this phase's changes: kill main 1 s into its first COQL call
				const since = Date.now();
				const began = await waitFor('a poll of the polling trigger', 90_000, () =>
					pollCallStarts.find((t) => t >= since),
				);
				await sleep(Math.max(0, began + 1000 - Date.now()));
				process.kill(-mainProc.pid, 'SIGKILL');
				const killedAt = Date.now();
				await fetch(`${sandboxUrl}/__sandbox/fault-plan`, { method: 'DELETE' });
				log(
					`  kill -9 of main ${secs(killedAt - began)} s into a poll (its COQL call still unanswered); restarting main…`,
				);
				mainProc = startN8n(...mainArgs);
				await waitReady(mainProc);
				await api.login(OWNER.email, OWNER.password);
				note = `kill -9 of main ${secs(killedAt - began)} s into a poll; main ready again ${secs(Date.now() - killedAt)} s later`;
				log(`  ${note}`);
			})();
		}
		await faultDone;

		// settled: every delivery answered or given up, nothing in progress in n8n, and every change seen (or no progress)
		const settleStart = Date.now();
		let lastProgress = Date.now();
		let lastSeen = -1;
		for (;;) {
			await readExecutions(pg);
			const phaseDeliveries = deliveries().filter((d) => d.delivery_id > firstDelivery);
			const pending = phaseDeliveries.filter((d) => d.outcome === 'pending' || d.duplicates).length;
			const inProgress = [...executions.values()].filter((e) =>
				['new', 'running', 'waiting'].includes(e.status),
			).length;
			const seen = new Set<string>();
			for (const e of executions.values())
				if (INSTANT.has(e.workflowId)) for (const id of e.records.keys()) seen.add(id);
			const seenCount = phaseChanges.filter((c) => seen.has(c.id)).length;
			if (seenCount !== lastSeen) {
				lastSeen = seenCount;
				lastProgress = Date.now();
			}
			const all = seenCount === phaseChanges.length;
			// a change whose delivery was lost comes with the catch-up: give it its minute, and a minute more
			if (
				pending === 0 &&
				inProgress === 0 &&
				(all || Date.now() - lastProgress > CATCH_UP_PATIENCE_MS)
			)
				break;
			if (Date.now() - settleStart > PHASE_SETTLE_CAP_MS) {
				log(
					`  not settled after ${secs(PHASE_SETTLE_CAP_MS)} s: ${pending} deliveries pending, ${inProgress} executions in progress, ${seenCount}/${phaseChanges.length} changes seen`,
				);
				break;
			}
			await sleep(1000);
		}
		if ((FAULTS && (phase === PHASE.faults || phase === PHASE.twoWebhooks)) || burst) {
			const plan = (await (
				await fetch(`${sandboxUrl}/__sandbox/fault-plan`, { method: 'DELETE' })
			).json()) as { stats: Record<string, number> };
			const s = plan.stats;
			note = `injected: ${s.lostResponses} answers lost, ${s.duplicatedDeliveries} duplicates after the first, ${s.concurrentDuplicates} concurrent duplicates`;
			if (phase === PHASE.twoWebhooks)
				note += `; proxy sent ${[...proxy.forwarded].map(([port, n]) => `${n} to :${port}`).join(', ')}`;
			proxy.backends = [P.webhook];
		}
		const phaseDeliveries = deliveries().filter((d) => d.delivery_id > firstDelivery);
		const result = {
			name,
			tally: tally(phaseChanges),
			sendMs,
			deliveries: phaseDeliveries,
			note,
			settledMs: Date.now() - settleStart,
			refusals: refusalsByOperation(sb.sandbox.requests.slice(firstRequest)),
			tokenCalls: tokenCalls.slice(firstTokenCall),
		};
		phaseResults.push(result);
		const r = result.tally;
		log(
			`  settled in ${secs(result.settledMs)} s: lost ${r.lost}${r.lostInFailed ? ` (${r.lostInFailed} in executions that did not succeed)` : ''}, doubled ${r.doubled}, record time mismatched ${r.mismatched}`,
		);
		log(
			`  429s answered to n8n: ${formatCounts(result.refusals)}; token calls: ${formatCounts(countBy(result.tokenCalls, (c) => `${c.process} ${c.grant}${c.error ? ` (${c.error})` : ''}`))}`,
		);
	}

	// the polling trigger: each deal's last change must reach one polling execution (scale/polling.mts)
	const finals = new Map<string, { time: string; at: number }>();
	for (const c of changes) if (c.module === 'Deals') finals.set(c.id, { time: c.time, at: c.at });
	const pollingEmits = (): PollingEmit[] => {
		const list: PollingEmit[] = [];
		for (const e of executions.values()) {
			if (e.workflowId !== WF.polling.id || e.status !== 'success') continue;
			for (const [id, time] of e.records) list.push({ execution: e.id, id, time: String(time) });
			for (const key of e.repeats ?? [])
				list.push({
					execution: e.id,
					id: key.slice(0, key.lastIndexOf('|')),
					time: key.slice(key.lastIndexOf('|') + 1),
				});
		}
		return list;
	};
	// the deals whose last change was made before the first scheduled poll began
	const firstScheduledPoll = pollCallStarts[publishingPollCalls];
	const beforeFirstPoll = [...finals]
		.filter(([, f]) => firstScheduledPoll === undefined || f.at < firstScheduledPoll)
		.map(([id]) => id);
	const pollingWaitStart = Date.now();
	let pollingSeen = -1;
	let pollingProgress = Date.now();
	for (;;) {
		await readExecutions(pg);
		const emitted = new Set(pollingEmits().map((e) => `${e.id}|${e.time}`));
		const seen = [...finals].filter(([id, f]) => emitted.has(`${id}|${f.time}`)).length;
		const busy = [...executions.values()].some(
			(e) => e.workflowId === WF.polling.id && ['new', 'running', 'waiting'].includes(e.status),
		);
		if (seen !== pollingSeen) {
			pollingSeen = seen;
			pollingProgress = Date.now();
		}
		if (!busy && (seen === finals.size || Date.now() - pollingProgress > POLL_PATIENCE_MS)) break;
		if (Date.now() - pollingWaitStart > 2 * POLL_PATIENCE_MS) {
			log(
				`  polling not caught up after ${secs(Date.now() - pollingWaitStart)} s: ${seen}/${finals.size} deals' last changes emitted`,
			);
			break;
		}
		await sleep(2000);
	}
	log(
		`polling trigger caught up ${secs(Date.now() - pollingWaitStart)} s after the last phase: ${pollingSeen}/${finals.size} deals' last changes emitted`,
	);

	// executions lost with the killed worker are not re-run by n8n; an operator retries them: do that through the REST API
	await readExecutions(pg);
	// the executions lost with the killed worker: those it had started (its log), and those n8n failed
	// as stalled jobs (a job the worker had taken but not yet started counts too)
	const killedIds = new Set<number>();
	const w1Runs = workerRuns([worker1]).get('worker-1')!;
	for (const id of w1Runs.started) if (!w1Runs.finished.has(id)) killedIds.add(id);
	for (const e of executions.values())
		if (!e.retryOf && (e.status === 'crashed' || STALLED.test(e.error ?? ''))) killedIds.add(e.id);
	const crashed = [...executions.values()].filter(
		(e) => e.status !== 'success' && !e.retryOf && (e.status === 'crashed' || killedIds.has(e.id)),
	);
	const retried: Array<{ id: number; status: number; newId?: string }> = [];
	if (crashed.length) {
		log(
			`retrying ${crashed.length} crashed execution(s) through n8n's REST API (POST /rest/executions/<id>/retry)…`,
		);
		for (const e of crashed) {
			const res = await api.request<any>('POST', `/rest/executions/${e.id}/retry`, {
				loadWorkflow: false,
			});
			retried.push({
				id: e.id,
				status: res.status,
				newId: res.data?.id ?? (typeof res.data === 'string' ? res.data : undefined),
			});
			if (res.status !== 200)
				log(`  retry of ${e.id} answered ${res.status}: ${JSON.stringify(res.data).slice(0, 300)}`);
		}
		await waitFor('the retried executions', 120_000, async () => {
			await readExecutions(pg);
			const retries = [...executions.values()].filter((e) => e.retryOf);
			const busy = retries.filter((e) => ['new', 'running', 'waiting'].includes(e.status));
			return retries.length >= retried.filter((r) => r.status === 200).length && busy.length === 0
				? true
				: undefined;
		}).catch((error) => log(`  ${String(error)}`));
	}
	await readExecutions(pg);
	sampleMemory();

	// ---- report ----
	console.log('\n──────── test:scale results ────────');
	console.log(
		`n8n ${N8N_VERSION}, queue mode: main + 2 webhook processes + 2 workers (concurrency 5) · PostgreSQL ${pgInfo.version} · Redis ${redis.version} · ` +
			`${PACKAGE_NAME}@${installed[0].version} installed in every user folder · Node ${process.versions.node}`,
	);
	const all = tally(changes);
	for (const [i, r] of phaseResults.entries()) {
		const d = r.deliveries;
		const attempts = d.reduce((n: number, x: any) => n + x.attempts.length, 0);
		const failedDeliveries = d.filter(
			(x: any) => x.outcome === 'failed' || x.outcome === 'dropped',
		).length;
		const dur = r.tally.lastFinished - r.tally.firstChange;
		console.log(
			`phase ${i + 1} ${r.name}: ${r.tally.changes} changes (sent in ${secs(r.sendMs)} s), ${d.length} deliveries / ${attempts} POSTs (${failedDeliveries} given up); ` +
				`lost ${r.tally.lost}, doubled ${r.tally.doubled}; ${(r.tally.changes / (dur / 1000)).toFixed(1)} changes/s end to end; ` +
				`latency p50 ${secs(percentile(r.tally.latencies, 50))} s, p95 ${secs(percentile(r.tally.latencies, 95))} s${r.note ? `\n    ${r.note}` : ''}`,
		);
		// how n8n answered the deliveries whose records never reached a successful execution
		const lost = new Set(r.tally.lostIds);
		const lostDeliveries = d.filter(
			(x: any) => x.ids.length > 0 && x.ids.some((id: string) => lost.has(id)),
		);
		if (lostDeliveries.length) {
			const answers = new Map<string, number>();
			for (const x of lostDeliveries) {
				const last = x.attempts.filter((a: any) => !a.copy).at(-1);
				const key = `${last?.status ?? last?.error} ${JSON.stringify(last?.response ?? '')}`;
				answers.set(key, (answers.get(key) ?? 0) + 1);
			}
			console.log(
				`    ${lostDeliveries.length} deliveries lost; n8n's last answer to them: ${[...answers].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
			);
		}
		// and how the deliveries whose records ran twice were sent (a copy, a retry after a lost answer or a timeout)
		const doubled = new Set(r.tally.doubledIds);
		for (const x of d.filter((y: any) => y.ids.some((id: string) => doubled.has(id)))) {
			const sent = x.attempts.map(
				(a: any) =>
					`${a.copy ? 'copy' : 'attempt'} ${a.lost ? 'answer lost' : (a.error ?? a.status)} (server_time +${a.server_time - x.attempts[0].server_time} ms): ${JSON.stringify(a.response ?? '')}`,
			);
			console.log(
				`    delivery ${x.delivery_id} (${x.module} ${x.operation}, ${x.ids.length} ids) ran twice; sent as: ${sent.join('; ')}`,
			);
		}
	}
	// §7 limits: every 429 the sandbox answered n8n, and what became of it
	const refusals = refusalsByOperation(sb.sandbox.requests);
	const refused = [...refusals.values()].reduce((a, b) => a + b, 0);
	const gaveUpOn429 = [...executions.values()].filter(
		(e) => e.status !== 'success' && TOO_MANY.test(e.error ?? ''),
	);
	const limits = (
		(await (await fetch(`${sandboxUrl}/__sandbox/limits`)).json()) as {
			limits: Record<string, unknown>;
		}
	).limits;
	console.log(
		`API limits on (${API_EDITION}: ${limits.concurrency_limit} calls in flight per client application, ${limits.subConcurrency} resource-intensive; token issuance limits on): ` +
			`${refused} answers 429 to n8n (${formatCounts(refusals)}), each retried by the package's back-off; ${gaveUpOn429.length} execution(s) gave up on a 429; ` +
			`${sb.sandbox.requests.length} API calls in all, credits used ${limits.credits_used}`,
	);
	const refreshCalls = tokenCalls.filter((c) => c.grant !== 'code');
	const tokenPhase = FAULTS ? phaseResults[PHASE.token] : undefined;
	const limitHit = refreshCalls.filter((c) => c.error === 'access_denied');
	console.log(
		`token calls, whole run: ${formatCounts(countBy(tokenCalls, (c) => `${c.process} ${c.grant}${c.error ? ` (${c.error})` : ''}`))}; ` +
			`issuance limit (10 access tokens per refresh token per 10 min) hit: ${limitHit.length ? `yes, ${limitHit.length} refusal(s)` : 'no'}` +
			(tokenPhase
				? `\n    token phase: refresh calls per process: ${formatCounts(countBy(tokenPhase.tokenCalls, (c) => `${c.process}${c.error ? ` (${c.error})` : ''}`))} ` +
					`(${tokenPhase.tokenCalls.map((c) => `${c.process} ${c.status} at +${secs(c.at - tokenExpiredAt)} s`).join(', ')} after the expiry)`
				: ''),
	);
	const byStatus = new Map<string, number>();
	for (const e of executions.values()) byStatus.set(e.status, (byStatus.get(e.status) ?? 0) + 1);
	const runs = workerRuns(workers);
	console.log(
		`executions: ${executions.size} (${[...byStatus].map(([s, n]) => `${n} ${s}`).join(', ')}); by worker: ${[...runs].map(([n, r]) => `${n} ${r.finished.size}`).join(', ')}`,
	);
	const total = all.lastFinished - all.firstChange;
	console.log(
		`all phases: ${all.changes} changes, lost ${all.lost}, doubled ${all.doubled}; ${(all.changes / (total / 1000)).toFixed(1)} changes/s end to end over ${secs(total)} s; ` +
			`latency change → execution finished p50 ${secs(percentile(all.latencies, 50))} s, p95 ${secs(percentile(all.latencies, 95))} s`,
	);
	console.log(
		`peak RSS (VmHWM): ${[...peaks].map(([n, v]) => `${n} ${Math.round(v.hwm / 1024)} MB`).join(', ')}`,
	);

	// n8n's own loss on kill -9: a stalled job fails (maxStalledCount 0) and its execution's start data
	// is erased, so neither n8n nor an operator can re-run it. Such losses must be whole deliveries, at
	// most one per execution the killed worker was running; anything else is a loss of the package.
	const killedFailed = [...killedIds].filter((id) => executions.get(id)?.status !== 'success');
	const killLost = new Set<string>();
	let killAttributable = true;
	if (FAULTS && phaseResults[PHASE.kill]) {
		const lost = new Set(phaseResults[PHASE.kill].tally.lostIds);
		const whole = phaseResults[PHASE.kill].deliveries.filter(
			(d: any) => d.ids.length > 0 && d.ids.every((id: string) => lost.has(id)),
		);
		for (const d of whole) for (const id of d.ids) killLost.add(id);
		killAttributable =
			[...lost].every((id) => killLost.has(id)) && whole.length <= killedFailed.length;
		console.log(
			`kill -9: n8n lost ${killLost.size} change(s) (${whole.length} whole deliveries acknowledged 200) with the ${killedFailed.length} execution(s) worker-1 had taken ` +
				`(${killedFailed.map((id) => `${id}: ${executions.get(id)?.status}`).join(', ') || 'none'}); retry through REST: ${retried.map((r) => `${r.id}→${r.newId ? `${r.newId}: ${executions.get(Number(r.newId))?.status}` : `HTTP ${r.status}`}`).join(', ') || 'none'}`,
		);
	}

	// n8n's own loss on a webhook-process restart: while its database is connected but not yet
	// migrated, n8n 2.40.7 answers every request 200 "n8n is starting up. Please wait"
	// (abstract-server.js) without routing it, so a delivery arriving then never reaches the node and
	// the CRM, holding a 200, does not re-send it. Only whole deliveries so answered count as n8n's.
	const STARTUP_PAGE = 'n8n is starting up. Please wait';
	const startupLost = new Set<string>();
	const restartPhase = FAULTS ? phaseResults[PHASE.restart] : undefined;
	let startupAttributable = true;
	if (restartPhase) {
		const lost = new Set(restartPhase.tally.lostIds);
		const answeredByStartupPage = restartPhase.deliveries.filter(
			(d: any) =>
				d.ids.length > 0 &&
				d.ids.every((id: string) => lost.has(id)) &&
				d.attempts.filter((a: any) => !a.copy).at(-1)?.response === STARTUP_PAGE,
		);
		for (const d of answeredByStartupPage) for (const id of d.ids) startupLost.add(id);
		startupAttributable = [...lost].every((id) => startupLost.has(id));
		if (startupLost.size) {
			console.log(
				`webhook restart: n8n lost ${startupLost.size} change(s) (${answeredByStartupPage.length} whole deliveries it answered 200 "${STARTUP_PAGE}" while starting, before any node code ran)`,
			);
		}
	}

	// the polling trigger beside the instant one: exactly once per deal's last change (scale/polling.mts)
	const polled = tallyPolling(
		finals,
		pollingEmits(),
		new Map([...executions.values()].filter((e) => e.stoppedAt).map((e) => [e.id, e.stoppedAt!])),
	);
	const pollingRuns = [...executions.values()].filter((e) => e.workflowId === WF.polling.id);
	const pollingNotOk = pollingRuns.filter((e) => e.status !== 'success');
	const pollCalls = pollCallStarts.length;
	const cursorRows = (
		await pg.query(`select * from poller_state where "workflowId" = $1`, [WF.polling.id])
	).rows;
	const staticData = (
		await pg.query(`select "staticData" from workflow_entity where id = $1`, [WF.polling.id])
	).rows[0]?.staticData;
	const mainLogs = procs
		.filter((p) => p.name === 'main')
		.map((p) => readFrom(p.log, p.logStart))
		.join('\n');
	const durableOff = /durable poll cursors stay disabled/.test(mainLogs);
	const cursorOf = (row: any) => {
		const cursor = typeof row?.cursor === 'string' ? JSON.parse(row.cursor) : row?.cursor;
		const stream = cursor?.streams?.['Deals|Modified_Time'];
		return stream
			? `Deals|Modified_Time at ${new Date(stream.time).toISOString()} with ${stream.seen?.length ?? 0} key(s) of that second`
			: JSON.stringify(cursor ?? null).slice(0, 200);
	};
	console.log(
		`polling trigger (Deals updated, every minute, durable poll cursors ${!DURABLE_CURSORS ? 'off (--durable-cursors-off)' : durableOff ? 'OFF (n8n warned)' : 'on'}): ${polled.records} deals changed, last change emitted once ${polled.ok}, ` +
			`lost ${polled.lost.length}, doubled ${polled.doubled.length}; ${pollingRuns.length} polling executions (${pollingNotOk.length} not successful), ${polled.emitted} items; ` +
			`latency change → polling execution finished p50 ${secs(percentile(polled.latencies, 50))} s, p95 ${secs(percentile(polled.latencies, 95))} s; ` +
			`${pollCalls} COQL calls (the polling trigger's API calls)` +
			`\n    cursor: poller_state ${cursorRows.length ? cursorOf(cursorRows[0]) : 'has no row'}; workflow static data ${staticData ? cursorOf({ cursor: staticData['node:' + WF.polling.trigger] ?? staticData }) : 'empty'}`,
	);
	for (const e of pollingRuns) {
		const times = [...e.records.values()].sort();
		console.log(
			`    polling execution ${e.id} (${e.status}): created +${secs((e.createdAt ?? started) - started)} s, ${e.emitted ?? 0} items (${e.records.size} records${e.repeats?.length ? `, ${e.repeats.length} repeated` : ''}), ` +
				`Modified_Time ${times[0] ?? '-'} … ${times.at(-1) ?? '-'}`,
		);
	}
	if (polled.lost.length)
		console.log(
			`    lost: ${polled.lost.slice(0, 10).join(', ')}${polled.lost.length > 10 ? ' …' : ''}`,
		);
	if (polled.doubled.length)
		console.log(
			`    doubled: ${polled.doubled.slice(0, 10).join(', ')}${polled.doubled.length > 10 ? ' …' : ''}`,
		);

	// two webhook processes: n8n's dedupe store has no atomic claim across processes, so a delivery
	// the CRM sent more than once (a copy, or a re-send after a timeout) may run in both; a delivery
	// sent once must never run twice
	const twoWebhookDoubles = { resent: 0, attributable: true, ids: new Set<string>() };
	const twoPhase = FAULTS ? phaseResults[PHASE.twoWebhooks] : undefined;
	if (twoPhase) {
		const doubled = new Set(twoPhase.tally.doubledIds);
		const resentIds = new Set(
			twoPhase.deliveries
				.filter((d: any) => d.attempts.length > 1)
				.flatMap((d: any) => d.ids as string[]),
		);
		twoWebhookDoubles.ids = new Set([...doubled].filter((id) => resentIds.has(id)));
		twoWebhookDoubles.resent = twoWebhookDoubles.ids.size;
		twoWebhookDoubles.attributable = twoWebhookDoubles.resent === doubled.size;
		const sentTwice = twoPhase.deliveries.filter((d: any) => d.attempts.length > 1);
		console.log(
			`two webhook processes: ${twoPhase.tally.doubled} of ${twoPhase.tally.changes} changes doubled (${((100 * twoPhase.tally.doubled) / twoPhase.tally.changes).toFixed(1)} %); ` +
				`${sentTwice.length} of ${twoPhase.deliveries.length} deliveries were sent more than once, ` +
				`${twoPhase.deliveries.filter((d: any) => d.ids.some((id: string) => doubled.has(id))).length} of them ran twice`,
		);
	}

	// doubles the phases did not count (their second execution came after the phase settled, e.g.
	// a catch-up): which executions ran them, by id, mode, start and size
	const lateDoubles = all.doubledIds.filter(
		(id) =>
			!twoWebhookDoubles.ids.has(id) && !phaseResults.some((r) => r.tally.doubledIds.includes(id)),
	);
	if (lateDoubles.length) {
		const late = new Set(lateDoubles);
		const runsOf = new Map<string, Execution[]>();
		for (const e of executions.values())
			if (INSTANT.has(e.workflowId) && e.status === 'success')
				for (const id of e.records.keys())
					if (late.has(id)) runsOf.set(id, [...(runsOf.get(id) ?? []), e]);
		const groups = countBy(lateDoubles, (id) =>
			(runsOf.get(id) ?? [])
				.map(
					(e) =>
						`${e.id} (${e.mode}, +${secs((e.createdAt ?? started) - started)} s, ${e.records.size} records)`,
				)
				.join(' and '),
		);
		console.log(
			`doubled after their phase settled: ${lateDoubles.length} change(s), ran by ${formatCounts(groups)}`,
		);
	}

	console.log('\nchecks:');
	for (const [i, r] of phaseResults.entries()) {
		if (FAULTS && i === PHASE.kill) {
			check(
				killAttributable,
				`phase ${i + 1} (${r.name}): the only changes lost are whole deliveries of executions killed in flight (${r.tally.lost} lost, ${killLost.size} attributed to ${killedFailed.length} killed execution(s))`,
			);
		} else if (FAULTS && i === PHASE.restart) {
			check(
				startupAttributable,
				`phase ${i + 1} (${r.name}): no change lost but whole deliveries n8n answered with its start-up page (${r.tally.lost} lost, ${startupLost.size} of them so answered)`,
			);
		} else
			check(
				r.tally.lost === 0,
				`phase ${i + 1} (${r.name}): no change lost (${r.tally.lost} lost)`,
			);
		if (FAULTS && i === PHASE.twoWebhooks) {
			check(
				twoWebhookDoubles.attributable,
				`phase ${i + 1} (${r.name}): the only changes doubled are of deliveries the CRM sent more than once, which the proxy may hand to both processes ` +
					`(${r.tally.doubled} doubled, ${twoWebhookDoubles.resent} of them in re-sent or copied deliveries)`,
			);
		} else
			check(
				r.tally.doubled === 0,
				`phase ${i + 1} (${r.name}): no change in two successful executions (${r.tally.doubled} doubled)`,
			);
	}
	check(
		all.lost - killLost.size - startupLost.size === 0,
		`every one of the ${all.changes} changes is in a successful execution, apart from the ${killLost.size} n8n lost with the killed worker and the ${startupLost.size} it answered with its start-up page (${all.lost - killLost.size - startupLost.size} lost otherwise)`,
	);
	check(
		all.doubled - twoWebhookDoubles.resent === 0,
		`no change is in two successful executions, apart from the ${twoWebhookDoubles.resent} copies that reached both webhook processes (${all.doubled - twoWebhookDoubles.resent} doubled otherwise)`,
	);
	if (DURABLE_CURSORS) {
		check(
			polled.lost.length === 0,
			`polling: every deal's last change is in a successful polling execution (${polled.records - polled.lost.length}/${polled.records}; ${polled.lost.length} lost)`,
		);
		check(
			polled.doubled.length === 0,
			`polling: no (id, Modified_Time) in two polling executions or twice in one (${polled.doubled.length} doubled)`,
		);
		check(
			!durableOff && cursorRows.length === 1,
			`polling: durable poll cursors on (no warning in main's log) and the cursor kept in poller_state (${cursorRows.length} row)`,
		);
		const lostEarly = beforeFirstPoll.filter((id) => polled.lost.includes(id));
		const firstChange = Math.min(...[...finals.values()].map((f) => f.at));
		const relative = (t: number) =>
			`${t < firstChange ? '' : '+'}${((t - firstChange) / 1000).toFixed(1)} s`;
		check(
			beforeFirstPoll.length > 0 && lostEarly.length === 0,
			`polling: the ${beforeFirstPoll.length} deals last changed between publishing and the first scheduled poll are emitted (${lostEarly.length} lost)` +
				(beforeFirstPoll.length > 0
					? ''
					: `; COQL calls from the first deal change: publishing poll ${pollCallStarts.slice(0, publishingPollCalls).map(relative).join(', ')}, then ${pollCallStarts
							.slice(publishingPollCalls, publishingPollCalls + 5)
							.map(relative)
							.join(', ')}`),
		);
	} else {
		// measured, not required: what the README says of n8n without durable poll cursors
		console.log(
			`polling without durable poll cursors (measured): ${polled.lost.length} of ${polled.records} deals' last change lost, ${polled.doubled.length} (id, Modified_Time) doubled; ` +
				`poller_state rows ${cursorRows.length}`,
		);
		check(
			cursorRows.length === 0,
			`polling: durable poll cursors off as asked (poller_state has ${cursorRows.length} row(s)); the cursor in the workflow's static data`,
		);
	}
	check(
		gaveUpOn429.length === 0,
		`the package backed off on every 429 of the API limits: ${refused} answered, ${gaveUpOn429.length} execution(s) failed on one`,
	);
	if (tokenPhase) {
		const processes = new Set(tokenPhase.tokenCalls.map((c) => c.process));
		check(
			tokenPhase.tokenCalls.length > 0 &&
				tokenPhase.tally.lost === 0 &&
				tokenPhase.tally.doubled === 0,
			`the access token expired mid-burst and every process kept working: ${tokenPhase.tokenCalls.length} token call(s) from ${[...processes].join(', ') || 'none'}, ` +
				`${tokenPhase.tokenCalls.filter((c) => c.error).length} refused; lost ${tokenPhase.tally.lost}, doubled ${tokenPhase.tally.doubled}`,
		);
	}
	check(
		all.mismatched === 0,
		`each execution carries the record as changed (id + Modified_Time / Created_Time): ${all.mismatched} mismatched`,
	);
	const ran = [...runs].filter(([, r]) => r.finished.size > 0).map(([n]) => n);
	check(
		ran.includes('worker-1') && ran.includes('worker-2'),
		`both workers ran executions (${[...runs].map(([n, r]) => `${n}: ${r.finished.size}`).join(', ')})`,
	);
	const notOk = [...executions.values()].filter(
		(e) =>
			e.status !== 'success' &&
			!killedIds.has(e.id) &&
			!(e.retryOf && killedIds.has(Number(e.retryOf))),
	);
	writeFileSync(path.join(RUN_DIR, 'deliveries.json'), JSON.stringify(deliveries(), null, 1));
	check(
		notOk.length === 0,
		`every execution succeeded, except those killed in flight and their retries (${notOk.map((e) => `${e.id}: ${e.status}`).join(', ') || 'none other'}; killed in flight: ${[...killedIds].join(', ') || 'none'})`,
	);
	const leads = changes.filter(
		(c) => c.module === 'Leads' && !killLost.has(c.id) && !startupLost.has(c.id),
	);
	// a lead whose copied delivery ran in both webhook processes (counted above) ran its Update in two
	// successful executions: two writes, one per execution, is what n8n asked of the CRM
	const successfulRuns = (id: string) =>
		[...executions.values()].filter(
			(e) => INSTANT.has(e.workflowId) && e.status === 'success' && e.records.has(id),
		).length;
	const expectedWrites = (id: string) => (twoWebhookDoubles.ids.has(id) ? successfulRuns(id) : 1);
	const writesOff = leads.filter((c) => leadWrites.get(c.id) !== expectedWrites(c.id));
	const copiedLeads = leads.filter((c) => twoWebhookDoubles.ids.has(c.id)).length;
	const descriptions = new Map<string, string>();
	for (let i = 0; i < leads.length; i += 100) {
		const res = await crm(
			'GET',
			`/Leads?ids=${leads
				.slice(i, i + 100)
				.map((c) => c.id)
				.join(',')}&fields=Last_Name,Description`,
		);
		for (const r of res.body?.data ?? [])
			descriptions.set(String(r.id), `${r.Description}|${r.Last_Name}`);
	}
	const wrongText = leads.filter((c) => {
		const [desc, last] = (descriptions.get(c.id) ?? '|').split('|');
		return desc !== `${LEAD_NOTE}${last}`;
	});
	check(
		writesOff.length === 0,
		`the CRM Record Update of each new lead (but those lost with the killed worker) reached the sandbox once per successful execution (${leads.length - writesOff.length}/${leads.length}; ${writesOff.length} written otherwise; ${copiedLeads} ran in both webhook processes)`,
	);
	check(
		wrongText.length === 0,
		`each new lead holds the value n8n wrote (${leads.length - wrongText.length}/${leads.length})`,
	);
	// the CRM sent each delivery once: what n8n answered, per phase; a steady burst is answered 2xx
	// on the first and only attempt, inside the CRM's 10 s, with no 503
	for (const [i, r] of phaseResults.entries()) {
		const answers = countBy(
			r.deliveries.flatMap((d: any) => d.attempts.filter((a: any) => !a.copy)),
			(a: any) => (a.status !== undefined ? String(a.status) : (a.error ?? 'none')),
		);
		console.log(
			`phase ${i + 1} (${r.name}): the CRM's single attempts answered ${formatCounts(answers)}`,
		);
	}
	// the burst: how n8n answered the CRM's single attempts (an attempt the CRM gave up on counts at its
	// 10 s; bench:queue times answers past it, at the proxy)
	const burstPhase = phaseResults[PHASE.burst];
	if (burstPhase) {
		const firsts = burstPhase.deliveries.map((d: any) => d.attempts.find((a: any) => !a.copy));
		const ms = firsts.filter(Boolean).map((a: any) => a.duration_ms as number);
		const inTime = firsts.filter(
			(a: any) => a && a.status >= 200 && a.status < 300 && a.duration_ms <= 10_000,
		).length;
		console.log(
			`phase ${PHASE.burst + 1} (${burstPhase.name}): ${inTime} of ${burstPhase.deliveries.length} deliveries answered 2xx inside the CRM's 10 s; ` +
				`${firsts.filter((a: any) => a?.status === 503).length} answered 503, ${firsts.filter((a: any) => a && a.status === undefined).length} timed out or failed to connect; ` +
				`answer p50 ${secs(percentile(ms, 50))} s, p95 ${secs(percentile(ms, 95))} s`,
		);
	}
	const steady = phaseResults[PHASE.steady];
	if (steady) {
		const notOk = steady.deliveries.filter(
			(d: any) => d.outcome !== 'delivered' || d.attempts.filter((a: any) => !a.copy).length !== 1,
		);
		check(
			notOk.length === 0,
			`phase 1 (${steady.name}): every one of its ${steady.deliveries.length} deliveries answered 2xx on its first and only attempt, inside the CRM's 10 s (${notOk.length} not: ${formatCounts(countBy(notOk, (d: any) => String(d.attempts.at(-1)?.status ?? d.attempts.at(-1)?.error)))})`,
		);
	}
	console.log(`run time ${secs(Date.now() - started)} s; logs in ${path.relative(REPO, RUN_DIR)}/`);
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
