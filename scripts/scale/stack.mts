// The queue-mode stack of the scale run, started as one: PostgreSQL, Redis, the CRM sandbox (in this
// process), the packed package in every n8n user folder, the credentials and workflows imported, the
// load balancer, n8n's processes (main, 2 webhook processes, 2 workers), the owner, the deals the
// run edits, the workflows published. The phases replace main, webhook processes and workers on the
// object it returns (mainProc, webhook, webhook2, workers).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	N8N_VERSION,
	PACKAGE_NAME,
	REPO,
	ensureN8n,
	installPackageInto,
	n8nLocalEnv,
	run,
} from '../n8n-runtime.mts';
import { N8nClient, OWNER, codeGrant } from '../start.mts';
import { BENCH_WARMUP_BATCHES } from './bench-trigger.mts';
import { n8nEnv, sampleMemory, waitReady } from './n8n.mts';
import type { N8nProc } from './n8n.mts';
import { watchRequestStarts, watchTokenCalls } from './observe.mts';
import type { TokenCall } from './observe.mts';
import {
	API_EDITION,
	BENCH,
	BURST,
	CHANGES,
	CREDENTIAL,
	DB_POOL,
	DELIVERY_RETRY_POLICY,
	DURABLE_CURSORS,
	EXPRESSION_ENGINE,
	P,
	POLL_CLIENT,
	POLL_CREDENTIAL,
	PORTS,
	ROUNDS,
	RUN_DIR,
	STATE_DIR,
	UPDATE_BATCH,
	WF,
	flag,
	log,
	secs,
	setStateDir,
} from './options.mts';
import {
	PID_FILE,
	cleanups,
	portFree,
	procs,
	savePids,
	startProc,
	stopLeftovers,
	stopProc,
	waitFor,
} from './processes.mts';
import { startRoundRobinProxy } from './proxy.mts';
import {
	aptInstall,
	ensureRedis,
	pgBinDir,
	pgClient,
	startPostgres,
	startRedis,
} from './services.mts';
import { credentialScopes, workflows } from './workflows.mts';

/** Starts the queue-mode stack and publishes the workflows; what the phases and the report use. */
export async function startQueueStack() {
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
	const setCrmToken = (token: string) => {
		crmToken = token;
	};
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
	const mainProc = startN8n(...mainArgs);
	const webhook = startN8n(...webhookArgs);
	const webhook2Args: [string, N8nProc['role'], string[], Record<string, string>, string] = [
		'webhook-2',
		'webhook',
		['webhook'],
		{ N8N_PORT: String(P.webhook2), N8N_RUNNERS_BROKER_PORT: String(P.broker.webhook2) },
		folder('webhook-2'),
	];
	const webhook2 = startN8n(...webhook2Args);
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
	// --bench-trigger edits deals only: the warm-up, then each round's burst on deals of its own
	const sharedUpdates = BENCH
		? ROUNDS * CHANGES + BENCH_WARMUP_BATCHES * UPDATE_BATCH
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
	return {
		pgInfo,
		redis,
		pg,
		deliveriesOf,
		sandboxUrl,
		sb,
		tokenCalls,
		pollCallStarts,
		leadWrites,
		mintToken,
		crm,
		folder,
		installed,
		publishStart: t,
		startN8n,
		workerArgs,
		workerEnv,
		webhookArgs,
		proxy,
		mainArgs,
		mainProc,
		webhook,
		webhook2Args,
		webhook2,
		worker1,
		workers,
		api,
		sharedUpdates,
		createsTotal,
		burstUpdates,
		dealIds,
		channels,
		setCrmToken,
	};
}

export type QueueStack = Awaited<ReturnType<typeof startQueueStack>>;
