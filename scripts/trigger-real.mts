// The CRM Trigger in a real n8n (single process, SQLite), as a user runs it:
//   node --experimental-strip-types --no-warnings scripts/trigger-real.mts [--no-build] [--keep] [--port 5721] [--sandbox-port 4121]
// Starts a sandbox whose channels live 30 s and an n8n 2.40.7 with the packed package installed the
// way the Community Nodes panel installs it (installPackageInto, registerInstalledPackage),
// publishes a CRM Trigger → No Operation workflow, then checks:
//   1. a real change in the CRM → exactly one execution, and the accepted delivery recorded in n8n's
//      database (workflow_entity.staticData);
//   2. the same delivery posted again, sequentially and twice at once → no execution;
//   3. a re-sent delivery (new server_time) of an emitted create or edit, twice at once → no
//      execution;
//   4. under injected delivery faults (copies at once, copies after the answer, lost answers), for
//      changes made one at a time and in a burst → every change emitted exactly once (lost and
//      doubled changes are counted and fail the check);
//   5. renewals come from main's cron, paced by the channel lifetime; deliveries never renew.
// Prints one line per check and exits non-zero when one fails. See docs/production.md "How the CRM Trigger
// delivers each change once".
import { spawn } from 'node:child_process';
import {
	closeSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import {
	childEnv,
	ensureN8n,
	n8nLocalEnv,
	installPackageInto,
	N8N_VERSION,
	nodeType,
	registerInstalledPackage,
	REPO,
	RUNTIME_DIR,
	run,
} from './n8n-runtime.mts';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string, fallback: number) => {
	const i = args.indexOf(name);
	return i >= 0 ? Number(args[i + 1]) : fallback;
};
const N8N_PORT = option('--port', 5721);
const SANDBOX_PORT = option('--sandbox-port', 4121);
const CHANNEL_SEC = 30;
const KEEP = flag('--keep');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (msg: string) => console.log(`[trigger-real] ${msg}`);
let failures = 0;
function check(ok: boolean, what: string): void {
	if (!ok) failures++;
	console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}`);
}

const WORKFLOW_ID = 'crmTrigReal00001';
const WEBHOOK_ID = '7e1a0000-0000-4000-8000-00000000c0de';
const TRIGGER_NAME = 'CRM Trigger';
const CREDENTIAL = { id: 'crmTrigRealCred1', name: 'CRM sandbox (trigger-real)' };

async function main(): Promise<void> {
	const cleanups: Array<() => Promise<void>> = [];
	const stop = async () => {
		while (cleanups.length) await cleanups.pop()!().catch((e) => log(`cleanup: ${String(e)}`));
	};
	process.on('SIGINT', () => void stop().then(() => process.exit(130)));
	try {
		if (!flag('--no-build')) {
			log('npm run build…');
			mkdirSync(RUNTIME_DIR, { recursive: true });
			await run('npm', ['run', 'build'], {
				cwd: REPO,
				logFile: path.join(RUNTIME_DIR, 'trigger-real-build.log'),
			});
		}
		const n8nBin = await ensureN8n(log);

		// --- sandbox: 30-s channels (renewal every ~10 s), deliveries retried after 1 and 2 s ---
		const { startSandbox } = (await import(
			path.join(REPO, 'sandbox', 'server.ts')
		)) as typeof import('../sandbox/server.ts');
		const sandboxUrl = `http://127.0.0.1:${SANDBOX_PORT}`;
		const sandbox = await startSandbox({
			port: SANDBOX_PORT,
			host: '127.0.0.1',
			dbPath: ':memory:',
			publicOrigin: sandboxUrl,
			demo: false,
			channelDefaultExpirySec: CHANNEL_SEC,
			channelMaxExpirySec: CHANNEL_SEC,
		});
		cleanups.push(() => sandbox.close());
		log(`sandbox on ${sandboxUrl} (channels live ${CHANNEL_SEC} s)`);

		// --- n8n home, credential (real code grant), workflow ---
		mkdirSync(RUNTIME_DIR, { recursive: true });
		// outside the repository: n8n writes its editor assets under the home, which linters would scan
		const home = mkdtempSync(path.join(tmpdir(), 'crm-trigger-real-'));
		if (!KEEP) cleanups.push(async () => rmSync(home, { recursive: true, force: true }));
		const editorUrl = `http://127.0.0.1:${N8N_PORT}`;
		const { codeGrant, N8nClient } = (await import('./start.mts')) as typeof import('./start.mts');
		const scope = 'CRM.modules.ALL,CRM.settings.ALL,CRM.notifications.ALL';
		const token = await codeGrant(sandboxUrl, {
			clientId: 'trigger-real',
			clientSecret: 'trigger-real',
			redirectUri: `${editorUrl}/rest/oauth2-credential/callback`,
			scope,
		});
		const credentialsFile = path.join(home, 'credentials.json');
		writeFileSync(
			credentialsFile,
			JSON.stringify([
				{
					...CREDENTIAL,
					type: 'crmOAuth2Api',
					data: {
						accountsUrl: sandboxUrl,
						apiVariant: 'v2.1',
						scope,
						clientId: 'trigger-real',
						clientSecret: 'trigger-real',
						oauthTokenData: token,
					},
				},
			]),
		);
		const workflowFile = path.join(home, 'workflow.json');
		writeFileSync(
			workflowFile,
			JSON.stringify({
				id: WORKFLOW_ID,
				name: 'CRM Trigger (trigger-real)',
				nodes: [
					{
						id: 'a0000000-0000-4000-8000-000000000001',
						name: TRIGGER_NAME,
						type: nodeType('crmTrigger'),
						typeVersion: 1,
						position: [0, 0],
						webhookId: WEBHOOK_ID,
						parameters: { modules: ['Leads'], events: ['create', 'edit'], output: 'records' },
						credentials: { crmOAuth2Api: CREDENTIAL },
					},
					{
						id: 'a0000000-0000-4000-8000-000000000002',
						name: 'Done',
						type: 'n8n-nodes-base.noOp',
						typeVersion: 1,
						position: [220, 0],
						parameters: {},
					},
				],
				connections: { [TRIGGER_NAME]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
				active: false,
			}),
		);
		const env = childEnv({
			...n8nLocalEnv(editorUrl),
			N8N_USER_FOLDER: home,
			N8N_PORT: String(N8N_PORT),
			WEBHOOK_URL: `${editorUrl}/`,
			N8N_RUNNERS_BROKER_PORT: String(N8N_PORT + 1),
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		});
		const n8nLog = path.join(home, 'n8n.log');
		const cliEnv = { ...env, N8N_RUNNERS_BROKER_PORT: String(N8N_PORT + 2) };
		// the package, as the Community Nodes panel installs it (before n8n starts: it loads packages at start)
		const installed = await installPackageInto(home, log);
		log('importing credential and workflow…');
		await run(process.execPath, [n8nBin, 'import:credentials', `--input=${credentialsFile}`], {
			cwd: home,
			logFile: n8nLog,
			env: cliEnv,
		});
		// the command above ran n8n's migrations: record the package where n8n lists installed packages
		await registerInstalledPackage(home, installed);
		await run(process.execPath, [n8nBin, 'import:workflow', `--input=${workflowFile}`], {
			cwd: home,
			logFile: n8nLog,
			env: cliEnv,
		});

		log(`starting n8n ${N8N_VERSION} on ${editorUrl} (log ${n8nLog})…`);
		const fd = openSync(n8nLog, 'a');
		const child = spawn(process.execPath, [n8nBin, 'start'], {
			cwd: home,
			env,
			detached: true,
			stdio: ['ignore', fd, fd],
		});
		closeSync(fd);
		cleanups.push(async () => {
			if (child.exitCode !== null || !child.pid) return;
			const exited = new Promise((r) => child.once('exit', r));
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				// already gone
			}
			if (
				(await Promise.race([exited.then(() => 'exit'), sleep(10_000).then(() => 'timeout')])) ===
				'timeout'
			) {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {
					// already gone
				}
			}
		});
		for (let i = 0; ; i++) {
			if (readFileSync(n8nLog, 'utf8').includes('Editor is now accessible')) break;
			if (child.exitCode !== null) throw new Error(`n8n exited; see ${n8nLog}`);
			if (i > 360) throw new Error('n8n did not start in 180 s');
			await sleep(500);
		}
		const api = new N8nClient(editorUrl);
		const owner = {
			email: 'owner@example.com',
			password: 'CrmSandbox1',
			firstName: 'CRM',
			lastName: 'Owner',
		};
		const setup = await api.request('POST', '/rest/owner/setup', owner);
		if (setup.status !== 200)
			throw new Error(`owner setup: ${setup.status} ${JSON.stringify(setup.data)}`);
		await api.login(owner.email, owner.password);

		const db = new DatabaseSync(path.join(home, '.n8n', 'database.sqlite'), { readOnly: true });
		cleanups.push(async () => db.close());
		const staticData = (): Record<string, any> => {
			const row = db
				.prepare('SELECT staticData FROM workflow_entity WHERE id = ?')
				.get(WORKFLOW_ID) as { staticData: string | null };
			return (row?.staticData ? JSON.parse(row.staticData) : {})[`node:${TRIGGER_NAME}`] ?? {};
		};
		const executions = (): number =>
			Number(
				(
					db
						.prepare('SELECT count(*) AS n FROM execution_entity WHERE workflowId = ?')
						.get(WORKFLOW_ID) as { n: number }
				).n,
			);

		// --- publish ---
		const wf = await api.request<{ versionId: string }>('GET', `/rest/workflows/${WORKFLOW_ID}`);
		const activated = await api.request('POST', `/rest/workflows/${WORKFLOW_ID}/activate`, {
			versionId: wf.data.versionId,
		});
		if (activated.status !== 200)
			throw new Error(`activate: ${activated.status} ${JSON.stringify(activated.data)}`);
		const notifyUrl = `${editorUrl}/webhook/${WEBHOOK_ID}/webhook`;
		for (let i = 0; !staticData().channelId; i++) {
			if (i > 60) throw new Error('no channel in static data 30 s after publishing');
			await sleep(500);
		}
		const channel = staticData();
		log(
			`published; channel ${channel.channelId} expires ${new Date(channel.expiresAt).toISOString()}`,
		);
		check(
			channel.notifyUrl === notifyUrl && typeof channel.token === 'string',
			'activation stored channel id, token and URL in the database',
		);

		const crm = async (method: string, p: string, body?: unknown) => {
			const res = await fetch(`${sandboxUrl}${p}`, {
				method,
				headers: {
					Authorization: `Bearer ${String(token.access_token)}`,
					'Content-Type': 'application/json',
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await res.text();
			return { status: res.status, body: text ? JSON.parse(text) : undefined };
		};
		const post = async (body: unknown) => {
			const t = Date.now();
			const res = await fetch(notifyUrl, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
			await res.text();
			return { status: res.status, ms: Date.now() - t };
		};

		const { createRequire } = await import('node:module');
		const flatted = createRequire(path.join(RUNTIME_DIR, 'node_modules', 'n8n', 'package.json'))(
			'flatted',
		) as { parse(text: string): any };
		/** every finished execution of the workflow: what the trigger emitted, and whether the next node ran */
		const runs = () =>
			(
				db
					.prepare(
						"SELECT e.id, e.status, d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = ? AND e.status NOT IN ('new', 'running') ORDER BY e.id",
					)
					.all(WORKFLOW_ID) as Array<{ id: number; status: string; data: string }>
			).map((row) => {
				const runData = flatted.parse(row.data).resultData.runData ?? {};
				const items = (runData[TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? []) as Array<{
					json: Record<string, any>;
				}>;
				return {
					id: row.id,
					status: row.status,
					changes: items.map((i) => `${i.json.operation}:${i.json.id}`),
					doneRan: runData.Done !== undefined,
				};
			});
		const settle = async (quietMs = 3000) => {
			// until no execution is running and the count has not moved for quietMs
			let last = -1;
			let stableSince = Date.now();
			for (;;) {
				const n = executions();
				const busy = Number(
					(
						db
							.prepare(
								"SELECT count(*) AS n FROM execution_entity WHERE workflowId = ? AND status IN ('new', 'running')",
							)
							.get(WORKFLOW_ID) as { n: number }
					).n,
				);
				if (n !== last || busy > 0) {
					last = n;
					stableSince = Date.now();
				} else if (Date.now() - stableSince >= quietMs) return;
				await sleep(200);
			}
		};
		const emittedCount = (change: string) =>
			runs().reduce((n, r) => n + r.changes.filter((c) => c === change).length, 0);
		const { deliveriesOf } = (await import(
			path.join(REPO, 'sandbox', 'deliveries.ts')
		)) as typeof import('../sandbox/deliveries.ts');
		const deliveryFor = (id: string, operation: string) =>
			deliveriesOf(sandbox.sandbox)!
				.log.filter((d) => d.ids.includes(id) && d.operation === operation)
				.at(-1)!;
		const patches = () =>
			sandbox.sandbox.requests.filter(
				(r) => r.method === 'PATCH' && r.url.endsWith('/actions/watch'),
			).length;

		// 1. a real change → one execution, answered at once
		const created = await crm('POST', '/crm/v2.1/Leads', {
			data: [{ Last_Name: 'Real n8n', Company: 'Trigger Co' }],
		});
		const leadId = created.body.data[0].details.id as string;
		await settle();
		const first = deliveryFor(leadId, 'insert');
		check(
			runs().length === 1 && emittedCount(`create:${leadId}`) === 1,
			`a created lead (${leadId}) started exactly one execution (answered in ${first.attempts[0]?.duration_ms} ms)`,
		);
		// n8n answered once it had stored and queued the execution (the trigger lets n8n answer)
		check(
			(first.attempts[0]?.duration_ms ?? Infinity) < 1000,
			`the delivery was answered within a second, after the execution was queued (${first.attempts[0]?.duration_ms} ms)`,
		);

		// 2. the very same delivery again: sequentially, then twice at the same moment
		const sentBody = first.body as Record<string, unknown>;
		const again = await post(sentBody);
		const both = await Promise.all([post(sentBody), post(sentBody)]);
		await settle();
		check(
			[again, ...both].every((r) => r.status === 200),
			`the same delivery posted again (1 sequential, 2 at once) is answered 200 (${[again, ...both].map((r) => r.ms).join(', ')} ms)`,
		);
		check(
			runs().length === 1,
			`the repeated deliveries started no execution (executions: ${runs().length})`,
		);

		// 3. re-sent with a new server_time (the CRM's retry after no timely answer)
		const resent = await post({ ...sentBody, server_time: Date.now() });
		await settle();
		check(
			resent.status === 200 && runs().length === 1 && emittedCount(`create:${leadId}`) === 1,
			'the create re-sent with a new server_time started no execution',
		);
		const edited = await crm('PUT', `/crm/v2.1/Leads/${leadId}`, { data: [{ Company: 'Edited' }] });
		await settle();
		check(
			edited.status === 200 && emittedCount(`edit:${leadId}`) === 1,
			'an edit of the lead started one execution that emitted it',
		);
		const editBody = deliveryFor(leadId, 'update').body as Record<string, unknown>;
		const beforeResend = runs().length;
		const editResent = await Promise.all([
			post({ ...editBody, server_time: Date.now() }),
			post({ ...editBody, server_time: Date.now() + 1 }),
		]);
		await settle();
		// an edit is known by the record's Modified_Time, which the execution reads: the re-sends start
		// executions that stop at the trigger, emitting nothing
		check(
			editResent.every((r) => r.status === 200) && emittedCount(`edit:${leadId}`) === 1,
			`the edit re-sent twice at once with new server_times emitted nothing more (${editResent.map((r) => r.ms).join(', ')} ms; executions: ${beforeResend} → ${runs().length}, the edit emitted ${emittedCount(`edit:${leadId}`)} time(s))`,
		);

		// 4. under delivery faults: copies at the same moment, copies after the answer, lost answers
		//    (re-sent with a new server_time), for changes made one at a time (every 300 ms) and in a burst
		const faultPhase = async (what: string, count: number, gapMs: number) => {
			sandbox.sandbox.faultPlan.set({
				concurrentDuplicateRate: 0.25,
				duplicateDeliveryRate: 0.2,
				lostResponseRate: 0.2,
				seed: 11,
			});
			const ids: string[] = [];
			for (let i = 0; i < count; i++) {
				ids.push(
					(await crm('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: `${what} ${i}` }] })).body
						.data[0].details.id,
				);
				await sleep(gapMs);
			}
			for (const id of ids) {
				await crm('PUT', `/crm/v2.1/Leads/${id}`, { data: [{ Company: `${what} Co ${id}` }] });
				await sleep(gapMs);
			}
			const mine = () =>
				deliveriesOf(sandbox.sandbox)!.log.filter((d) => ids.some((id) => d.ids.includes(id)));
			for (
				let i = 0;
				i < 150 && !mine().every((d) => d.outcome !== 'pending' && !d.duplicates);
				i++
			)
				await sleep(200);
			await settle(4000);
			const stats = { ...sandbox.sandbox.faultPlan.stats };
			sandbox.sandbox.faultPlan.clear();
			const changes = ids.flatMap((id) => [`create:${id}`, `edit:${id}`]);
			const counts = changes.map((c) => emittedCount(c));
			log(
				`${what}: ${changes.length} changes; faults: copies at once ${stats.concurrentDuplicates}, copies after the answer ${stats.duplicatedDeliveries}, lost answers ${stats.lostResponses}; POSTs to n8n ${mine().reduce((n, d) => n + d.attempts.length, 0)}; emitted once ${counts.filter((n) => n === 1).length}, twice or more ${counts.filter((n) => n > 1).length}, never ${counts.filter((n) => n === 0).length}`,
			);
			for (const [n, change] of changes.map((c, k) => [counts[k], c] as const)) {
				if (n === 1) continue;
				const [op, id] = change.split(':');
				const deliveries = deliveriesOf(sandbox.sandbox)!.log.filter(
					(d) => d.ids.includes(id) && d.operation === (op === 'create' ? 'insert' : 'update'),
				);
				log(
					`  ${change}: emitted ${n}×; executions ${JSON.stringify(
						runs()
							.filter((r) => r.changes.includes(change))
							.map((r) => r.id),
					)}; attempts ${JSON.stringify(deliveries.flatMap((d) => d.attempts.map((a) => `${a.status ?? a.error}${a.copy ? ' copy' : ''}${a.lost ? ' lost' : ''} ${a.duration_ms}ms`)))}`,
				);
			}
			return counts;
		};
		// one n8n process: copies and re-sends meet the process latch, then static data, then n8n's
		// deduplication store (docs/production.md): every change must be emitted exactly once
		for (const [what, gap] of [
			['Paced', 300],
			['Burst', 0],
		] as const) {
			const counts = await faultPhase(what, 15, gap);
			const lost = counts.filter((n) => n === 0).length;
			const doubled = counts.filter((n) => n > 1).length;
			check(
				lost === 0 && doubled === 0,
				`${what}: under delivery faults every change was emitted exactly once (${counts.filter((n) => n === 1).length} of ${counts.length} once, ${lost} lost, ${doubled} doubled)`,
			);
		}

		// 5. renewal: main's cron renews the channel in the CRM; deliveries never do
		const persisted = staticData();
		const expiries: number[] = [];
		const p0 = patches();
		for (let i = 0; i < 12; i++) {
			const live = await crm('GET', `/crm/v2.1/actions/watch?channel_id=${channel.channelId}`);
			const expiry = live.status === 200 ? Date.parse(live.body.watch[0].channel_expiry) : 0;
			if (expiries.at(-1) !== expiry) expiries.push(expiry);
			await sleep(2000);
		}
		const renewals = patches() - p0;
		log(
			`channel expiry in the CRM over 24 s: ${expiries.map((e) => new Date(e).toISOString().slice(11, 19)).join(', ')}; renewals (PATCH): ${renewals}`,
		);
		check(
			expiries.length >= 2 && expiries.every((e) => e > 0),
			'the channel stayed alive and its expiry moved with each renewal',
		);
		check(
			renewals >= 1 && renewals <= 4,
			`renewals are paced by the channel lifetime (${renewals} in 24 s for a ${CHANNEL_SEC}-s channel, cron every ${CHANNEL_SEC / 6} s)`,
		);
		const pBefore = patches();
		const quick = await post(editBody);
		check(quick.status === 200 && patches() === pBefore, 'a delivery does not renew the channel');
		check(
			persisted.expiresAt === channel.expiresAt,
			`expiresAt in the database is the activation's (${new Date(channel.expiresAt).toISOString()}): deliveries never wrote their own`,
		);
		await settle();
		const all = runs();
		log(
			`executions: ${all.length} (${all.filter((r) => r.changes.length > 0).length} emitted changes, ${all.filter((r) => r.changes.length === 0).length} ended at the trigger with no items); statuses: ${[...new Set(all.map((r) => r.status))].join(', ')}`,
		);
		check(
			all.every((r) => r.status === 'success'),
			'every execution succeeded',
		);
		check(
			all.every((r) => r.changes.length > 0),
			'every execution emitted a change: repeats were all stopped before an execution started',
		);

		console.log(
			`trigger-real: ${failures === 0 ? 'all checks passed' : `${failures} check(s) failed`}; executions of the workflow: ${executions()}`,
		);
	} finally {
		await stop();
	}
	process.exit(failures === 0 ? 0 : 1);
}

main().catch((error) => {
	console.error(
		`trigger-real failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
	);
	process.exit(1);
});
