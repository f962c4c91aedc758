// `npm run test:compat`: the package on every n8n version of COMPAT_VERSIONS, as a user gets it.
// For each version, one after the other:
//   1. n8n is installed by the recipe of scripts/n8n-runtime.mts (`npm install --ignore-scripts`,
//      then `npm rebuild sqlite3 isolated-vm` for Node 24): the pinned version (N8N_VERSION) is the
//      runtime of `npm start` / `npm run test:e2e` (RUNTIME_DIR, shared with them), the others go to
//      `.n8n-compat/<version>/` (N8N_COMPAT_DIR); an install is reused while its stamp matches;
//   2. the stack of `npm start` (scripts/start.mts) starts on it, in a fresh user folder: the
//      `npm pack`ed package installed the way the Community Nodes panel does, a sandbox with demo
//      data in memory, a credential connected by a real code grant, the examples of examples/;
//   3. every node of package.json "n8n".nodes is among n8n's node types (`/types/nodes.json`);
//   4. every example that starts with a Manual Trigger runs as shipped (`n8n execute --id`): no
//      error, every CRM node ran and gave items;
//   5. the CRM Trigger example is published (REST, as the editor's Publish button does), the
//      trigger subscribes a watch channel at n8n, a deal's stage changes in the sandbox and the
//      workflow runs once, successfully; then it is unpublished.
// Prints each check, a table of the versions, and "N passed, M failed"; exits non-zero when one
// failed. The README's Compatibility table lists exactly COMPAT_VERSIONS and what this checks.
//
//   npm run test:compat                          every version (build first)
//   npm run test:compat -- --no-build --only 2.41.1
//   npm run test:compat -- --install-only        install every version, test nothing (.ci/run, beside the unit tests)
//   npm run test:compat -- --only 2.0.3 --override xlsx=npm:@e965/xlsx@0.20.3   (a version outside the table)
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import {
	childEnv,
	ensureN8n,
	isInstalled,
	N8N_VERSION,
	n8nInstall,
	PINNED,
	REPO,
	run,
	type N8nInstall,
} from './n8n-runtime.mts';
import { N8nClient, OWNER, startStack, type Stack } from './start.mts';

/**
 * The n8n versions the package is tested on: the oldest it supports, the pinned one and the newest
 * that installs from the registry (README "Compatibility" states the range and why it ends there).
 */
export const COMPAT_VERSIONS: CompatVersion[] = [
	{ version: '2.39.10' },
	{ version: N8N_VERSION },
	{ version: '2.41.1' },
];

export interface CompatVersion {
	version: string;
	/** npm overrides the install needs on this registry (README "Compatibility" names each) */
	overrides?: Record<string, string>;
}

const COMPAT_DIR = path.resolve(process.env.N8N_COMPAT_DIR ?? path.join(REPO, '.n8n-compat'));
const N8N_PORT = Number(process.env.COMPAT_N8N_PORT ?? 5730);
const SANDBOX_PORT = Number(process.env.COMPAT_SANDBOX_PORT ?? 4130);
/**
 * Ports of the n-th version tested: each version gets its own, since this process's HTTP client
 * keeps connections open to the previous stack's ports and a reused one fails ("fetch failed").
 */
const portsOf = (n: number) => ({ n8n: N8N_PORT + 10 * n, sandbox: SANDBOX_PORT + 2 * n });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Example {
	id: string;
	name: string;
	file: string;
	nodes: Array<{ name: string; type: string }>;
}

interface VersionResult {
	version: string;
	installSeconds?: number;
	startSeconds?: number;
	checks: Array<{ name: string; ok: boolean; detail?: string; seconds: number }>;
}

function installFor({ version, overrides }: CompatVersion): N8nInstall {
	return version === N8N_VERSION && !overrides
		? PINNED
		: n8nInstall(path.join(COMPAT_DIR, version), version, overrides);
}

/** `n8n execute --id`: the run data it prints (`--rawOutput`), or the reason it failed. */
async function executeById(
	stack: Stack,
	brokerPort: number,
	id: string,
	logFile: string,
): Promise<{
	runData?: Record<string, Array<{ data?: { main?: unknown[][] }; error?: { message?: string } }>>;
	error?: string;
}> {
	// stdout to a file, not a pipe: n8n's CLI exits right after printing, and Node drops what a pipe
	// has not taken yet (a 60-deal run came back cut off mid-JSON); writes to a file are synchronous
	const outFile = `${logFile}.${id}.out`;
	const outFd = openSync(outFile, 'w');
	return await new Promise((resolve) => {
		const child = spawn(process.execPath, [stack.n8nBin, 'execute', `--id=${id}`, '--rawOutput'], {
			cwd: stack.home,
			env: { ...stack.cliEnv, N8N_RUNNERS_BROKER_PORT: String(brokerPort) },
			stdio: ['ignore', outFd, 'pipe'],
		});
		let err = '';
		child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
		child.on('close', (code) => {
			closeSync(outFd);
			const out = readFileSync(outFile, 'utf8');
			writeFileSync(
				logFile,
				`$ n8n execute --id=${id} (exit ${code})\n${out}\n--- stderr\n${err}\n`,
				{
					flag: 'a',
				},
			);
			const start = out.search(/^\{/m);
			const end = out.lastIndexOf('}');
			let data:
				| {
						data?: {
							resultData?: {
								error?: { message?: string };
								runData?: Record<
									string,
									Array<{ data?: { main?: unknown[][] }; error?: { message?: string } }>
								>;
							};
						};
				  }
				| undefined;
			try {
				if (start >= 0) data = JSON.parse(out.slice(start, end + 1));
			} catch {
				// not the run data
			}
			const runData = data?.data?.resultData?.runData;
			const error =
				data?.data?.resultData?.error?.message ??
				(code !== 0 || !runData
					? `exit ${code}: ${(err || out).trim().split('\n').slice(-3).join(' | ')}`
					: undefined);
			resolve({ runData, error });
		});
	});
}

/** The sandbox's REST API with a token minted by its test hook. */
function sandboxClient(url: string) {
	let token = '';
	const call = async <T,>(method: string, p: string, body?: unknown): Promise<T> => {
		if (!token && !p.startsWith('/__sandbox')) {
			token = (
				await call<{ access_token: string }>('POST', '/__sandbox/tokens', {
					scope: 'CRM.modules.ALL,CRM.notifications.ALL,CRM.settings.ALL',
				})
			).access_token;
		}
		const res = await fetch(new URL(p, url), {
			method,
			headers: {
				'Content-Type': 'application/json',
				...(token && !p.startsWith('/__sandbox') ? { Authorization: `Bearer ${token}` } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		return (text ? JSON.parse(text) : {}) as T;
	};
	return { call };
}

type Installed = { cached: boolean; seconds: number };

/**
 * Installs every version that is not installed yet, one after the other, in the background: the
 * versions already installed are tested meanwhile (an install is mostly download and unpacking).
 */
function installAll(versions: CompatVersion[]): Map<string, Promise<Installed>> {
	const installs = new Map<string, Promise<Installed>>();
	let chain: Promise<unknown> = Promise.resolve();
	for (const target of versions) {
		const install = installFor(target);
		const done = chain.then(async () => {
			const cached = isInstalled(install);
			const t = Date.now();
			await ensureN8n((m) => console.log(`[${target.version}] ${m}`), install);
			return { cached, seconds: cached ? 0 : Math.round((Date.now() - t) / 1000) };
		});
		installs.set(target.version, done);
		chain = done.catch(() => undefined);
	}
	return installs;
}

async function testVersion(
	target: CompatVersion,
	installing: Promise<Installed>,
	ports: { n8n: number; sandbox: number },
	build: boolean,
): Promise<VersionResult> {
	const { version } = target;
	const result: VersionResult = { version, checks: [] };
	const folder = path.join(COMPAT_DIR, `${version}-run`);
	mkdirSync(folder, { recursive: true });
	const logFile = path.join(folder, 'compat.log');
	writeFileSync(logFile, `n8n ${version}, ${new Date().toISOString()}\n`);
	const log = (m: string) => console.log(`[${version}] ${m}`);
	const check = async (name: string, fn: () => Promise<string | void>): Promise<boolean> => {
		const t = Date.now();
		let ok = true;
		let detail: string | undefined;
		try {
			detail = (await fn()) ?? undefined;
		} catch (error) {
			ok = false;
			detail = error instanceof Error ? error.message : String(error);
		}
		const seconds = (Date.now() - t) / 1000;
		result.checks.push({ name, ok, detail, seconds });
		console.log(
			`${ok ? '✓' : '✕'} n8n ${version}: ${name} (${seconds.toFixed(1)} s)${detail ? `\n    ${detail}` : ''}`,
		);
		return ok;
	};

	const install = installFor(target);
	const installed = await check(
		`installs (${path.relative(REPO, install.dir) || install.dir})`,
		async () => {
			const { cached, seconds } = await installing;
			result.installSeconds = seconds;
			return cached ? 'already installed' : `installed in ${seconds} s`;
		},
	);
	if (!installed) return result;

	let stack: Stack | undefined;
	const started = await check('starts with the package installed from its tarball', async () => {
		const t = Date.now();
		stack = await startStack({
			n8n: install,
			home: path.join(folder, 'home'),
			sandboxDb: ':memory:',
			fresh: true,
			build,
			port: ports.n8n,
			sandboxPort: ports.sandbox,
			log,
		});
		result.startSeconds = Math.round((Date.now() - t) / 1000);
		return `n8n ${stack.n8nVersion} and the sandbox up in ${result.startSeconds} s`;
	});
	if (!started || !stack) return result;
	const s = stack;
	try {
		const api = new N8nClient(s.editorUrl);
		await api.login(OWNER.email, OWNER.password);

		await check(`every node loaded (${s.nodes.length})`, async () => {
			const res = await api.request<Array<{ name: string }>>('GET', '/types/nodes.json');
			const types = new Set((Array.isArray(res.data) ? res.data : []).map((t) => t.name));
			const missing = s.nodes.filter((n) => !types.has(n.type)).map((n) => n.type);
			if (missing.length) throw new Error(`not among n8n's node types: ${missing.join(', ')}`);
		});

		const examples: Example[] = s.workflows.map((w) => {
			const json = JSON.parse(readFileSync(path.join(REPO, 'examples', w.file), 'utf8')) as {
				nodes: Array<{ name: string; type: string }>;
			};
			return { ...w, nodes: json.nodes };
		});
		const manual = examples.filter((e) =>
			e.nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger'),
		);
		for (const example of manual) {
			await check(`example ${example.file} runs (n8n execute --id)`, async () => {
				// a broker port of its own: `n8n start` holds the stack's (port + 1000) and its CLI (+ 1001)
				const { runData, error } = await executeById(s, ports.n8n + 1002, example.id, logFile);
				if (error) throw new Error(error);
				const crm = example.nodes.filter((n) => n.type.startsWith('n8n-nodes-crm-service.'));
				const problems: string[] = [];
				for (const node of crm) {
					const runs = runData?.[node.name];
					if (!runs?.length) problems.push(`${node.name} did not run`);
					else if (runs.some((r) => r.error))
						problems.push(`${node.name}: ${runs[0].error?.message}`);
					else if (!runs.some((r) => (r.data?.main?.[0]?.length ?? 0) > 0))
						problems.push(`${node.name} gave no item`);
				}
				if (problems.length) throw new Error(problems.join('; '));
				return `${crm.length} CRM node(s) ran`;
			});
		}

		const trigger = examples.find((e) =>
			e.nodes.some((n) => n.type === 'n8n-nodes-crm-service.crmTrigger'),
		);
		await check(
			`trigger example ${trigger?.file ?? '(none)'}: published, a deal change runs it`,
			async () => {
				if (!trigger) throw new Error('no example with the CRM Trigger');
				const sandbox = sandboxClient(s.sandboxUrl);
				const wf = await api.request<{ versionId?: string; active?: boolean }>(
					'GET',
					`/rest/workflows/${trigger.id}`,
				);
				const activated = await api.request('POST', `/rest/workflows/${trigger.id}/activate`, {
					versionId: wf.data.versionId,
				});
				if (activated.status !== 200)
					throw new Error(
						`publishing failed: ${activated.status} ${JSON.stringify(activated.data).slice(0, 300)}`,
					);
				try {
					for (const until = Date.now() + 60_000; ; ) {
						const watch = await sandbox.call<{ watch?: Array<{ notify_url: string }> }>(
							'GET',
							'/crm/v2.1/actions/watch',
						);
						if ((watch.watch ?? []).some((w) => w.notify_url.startsWith(`${s.editorUrl}/webhook/`)))
							break;
						if (Date.now() > until)
							throw new Error(`no watch channel points at n8n 60 s after publishing`);
						await sleep(1000);
					}
					const deals = await sandbox.call<{ data?: Array<Record<string, unknown>> }>(
						'GET',
						'/crm/v2.1/Deals?per_page=200&fields=Deal_Name,Stage,Pipeline',
					);
					const deal = (deals.data ?? []).find(
						(d) => d.Pipeline !== 'Enterprise' && !String(d.Stage).startsWith('Closed'),
					);
					if (!deal) throw new Error('no open deal outside the blueprint in the sandbox');
					const stage =
						deal.Stage === 'Negotiation/Review' ? 'Proposal/Price Quote' : 'Negotiation/Review';
					const upd = await sandbox.call<{ data?: Array<{ code: string }> }>(
						'PUT',
						'/crm/v2.1/Deals',
						{
							data: [{ id: deal.id, Stage: stage }],
						},
					);
					if (upd.data?.[0]?.code !== 'SUCCESS')
						throw new Error(`stage change refused by the sandbox: ${JSON.stringify(upd)}`);
					type Exec = { id: string; status: string };
					const executions = async () =>
						(
							await api.request<{ results?: Exec[] }>(
								'GET',
								`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: trigger.id }))}`,
							)
						).data.results ?? [];
					let done: Exec[] = [];
					for (const until = Date.now() + 60_000; Date.now() < until; await sleep(1000)) {
						done = (await executions()).filter((e) => e.status !== 'running' && e.status !== 'new');
						if (done.length) break;
					}
					if (!done.length) throw new Error('no execution within 60 s of the stage change');
					await sleep(3000);
					done = await executions();
					if (done.length !== 1 || done[0].status !== 'success')
						throw new Error(`executions: ${JSON.stringify(done.map((e) => e.status))}`);
					return `one successful execution (${String(deal.Stage)} → ${stage})`;
				} finally {
					await api.request('POST', `/rest/workflows/${trigger.id}/deactivate`, {});
				}
			},
		);
	} finally {
		await s.stop();
	}
	return result;
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	let build = true;
	let installOnly = false;
	let versions = COMPAT_VERSIONS;
	const overrides: Record<string, string> = {};
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--no-build') build = false;
		else if (argv[i] === '--install-only') installOnly = true;
		else if (argv[i] === '--only')
			// a version outside the table is tried as it is (with --override when it needs one)
			versions = String(argv[++i] ?? '')
				.split(',')
				.map((v) => COMPAT_VERSIONS.find((c) => c.version === v) ?? { version: v });
		else if (argv[i] === '--override') {
			const [name, spec] = String(argv[++i] ?? '').split('=');
			overrides[name] = spec;
		} else
			throw new Error(
				`unknown option ${argv[i]} (--no-build, --install-only, --only 2.41.1,2.40.7, --override name=spec)`,
			);
	}
	if (Object.keys(overrides).length)
		versions = versions.map((v) => ({ ...v, overrides: { ...v.overrides, ...overrides } }));
	mkdirSync(COMPAT_DIR, { recursive: true });
	if (installOnly) {
		// .ci/run installs every version while the unit tests run: the pinned one first (the others
		// reuse its native builds), one at a time
		const pinnedFirst = [
			...versions.filter((v) => installFor(v) === PINNED),
			...versions.filter((v) => installFor(v) !== PINNED),
		];
		for (const [version, done] of installAll(pinnedFirst)) {
			const { cached, seconds } = await done;
			console.log(`n8n ${version}: ${cached ? 'already installed' : `installed in ${seconds} s`}`);
		}
		return;
	}
	if (build) {
		const buildLog = path.join(COMPAT_DIR, 'build.log');
		writeFileSync(buildLog, '');
		await run('npm', ['run', 'build'], { cwd: REPO, logFile: buildLog, env: childEnv() });
	}
	const t0 = Date.now();
	// installed versions first, while the others install
	const order = [
		...versions.filter((v) => isInstalled(installFor(v))),
		...versions.filter((v) => !isInstalled(installFor(v))),
	];
	const installs = installAll(order);
	const byVersion = new Map<string, VersionResult>();
	for (const [n, target] of order.entries()) {
		// the stack builds nothing: the build above (or the caller's) is what gets packed
		byVersion.set(
			target.version,
			await testVersion(target, installs.get(target.version)!, portsOf(n), false),
		);
	}
	const results = versions.map((v) => byVersion.get(v.version)!);
	console.log('\n| n8n | install | start | checks | result |\n|---|---|---|---|---|');
	for (const r of results) {
		const failed = r.checks.filter((c) => !c.ok).length;
		console.log(
			`| ${r.version} | ${r.installSeconds === undefined ? '–' : `${r.installSeconds} s`} | ${r.startSeconds === undefined ? '–' : `${r.startSeconds} s`} | ${r.checks.length - failed}/${r.checks.length} | ${failed ? 'FAILED' : 'passed'} |`,
		);
	}
	const all = results.flatMap((r) => r.checks);
	const failed = all.filter((c) => !c.ok).length;
	console.log(`\ncompat: ${Math.round((Date.now() - t0) / 1000)} s`);
	console.log(`${all.length - failed} passed, ${failed} failed`);
	process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
	main().catch((error) => {
		console.error(`test:compat failed: ${error instanceof Error ? error.stack : String(error)}`);
		process.exit(1);
	});
}
