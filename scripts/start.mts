// `npm start`: builds the package, starts the CRM sandbox with demo data and a real n8n editor with
// this package installed as teams install it (the `npm pack`ed tarball, installed into the user
// folder's `.n8n/nodes` the way the Community Nodes panel does: see installPackageInto in
// scripts/n8n-runtime.mts), an owner account, a `crmOAuth2Api`
// credential connected to the sandbox by a real authorization-code grant, and the example
// workflows of examples/ imported. Ctrl-C stops everything it started.
//
//   npm start                       editor on http://127.0.0.1:5678, sandbox (and its pages) on http://127.0.0.1:4010
//   npm start -- --fresh            forget the editor's data and the sandbox data first
//   npm start -- --no-build --port 5679 --sandbox-port 4011 --verbose
//
// `startStack()` is also what `npm run test:e2e` (scripts/e2e.mts) uses.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';

import {
	alive,
	childEnv,
	ensureN8n,
	n8nLocalEnv,
	waitFor,
	installPackageInto,
	N8N_VERSION,
	type N8nInstall,
	nodeType,
	registerInstalledPackage,
	REPO,
	RUNTIME_DIR,
	run,
} from './n8n-runtime.mts';

export const EXAMPLES_DIR = path.join(REPO, 'examples');
/** id and name the example workflows use for their credential (they also import into any n8n: pick your own credential there) */
export const EXAMPLE_CREDENTIAL = { id: 'crmSandboxOAuth2', name: 'CRM sandbox (OAuth2)' };
export const OWNER = {
	email: process.env.N8N_OWNER_EMAIL ?? 'owner@example.com',
	password: process.env.N8N_OWNER_PASSWORD ?? 'CrmSandbox1',
	firstName: 'CRM',
	lastName: 'Owner',
};
/** the credential's default scope list (docs/protocol.md §2.3), read from the built credential when it exists */
const FALLBACK_SCOPES =
	'CRM.modules.ALL,CRM.settings.ALL,CRM.users.ALL,CRM.org.ALL,CRM.bulk.ALL,CRM.coql.READ,CRM.notifications.ALL,CRM.send_mail.all.CREATE,CRM.share.ALL,CRM.mass_update.ALL,CRM.templates.email.READ,CRM.templates.inventory.READ,CRM.files.ALL';

export interface StackOptions {
	/** editor port (default 5678) */
	port?: number;
	/** sandbox port (default 4010) */
	sandboxPort?: number;
	/** N8N_USER_FOLDER (default .n8n-runtime/home) */
	home?: string;
	/** sandbox database (default .sandbox-data/sandbox.db, the one `npm run sandbox` uses) */
	sandboxDb?: string;
	/** wipe the editor folder and sandbox database first */
	fresh?: boolean;
	/** run `npm run build` first (default true) */
	build?: boolean;
	/** mirror n8n's output on the console */
	verbose?: boolean;
	/** extra environment for n8n */
	n8nEnv?: Record<string, string>;
	/** which n8n to run (default: the pinned runtime, N8N_VERSION in RUNTIME_DIR); `npm run test:compat` passes others */
	n8n?: N8nInstall;
	log?: (msg: string) => void;
}

export interface PackageNode {
	/** path from package.json "n8n".nodes */
	file: string;
	name: string;
	displayName: string;
	/** type name as installed from the registry: `n8n-nodes-crm-service.<name>` */
	type: string;
	isTrigger: boolean;
	/** description.description, shown under the name in the node panel */
	description: string;
	properties: Array<Record<string, unknown>>;
}

export interface Stack {
	editorUrl: string;
	sandboxUrl: string;
	owner: typeof OWNER;
	home: string;
	n8nLog: string;
	credentialId: string;
	/** version of the package installed from its tarball */
	packageVersion: string;
	workflows: Array<{ id: string; name: string; file: string }>;
	nodes: PackageNode[];
	/** env to run other n8n CLI commands against the same folder */
	cliEnv: NodeJS.ProcessEnv;
	n8nBin: string;
	/** the n8n version running */
	n8nVersion: string;
	/** resolves with a reason when n8n exits on its own */
	exited: Promise<string>;
	stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function readPackageJson(): { n8n: { nodes: string[]; credentials: string[] } } {
	return JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
}

/** The package's nodes, discovered from package.json "n8n".nodes and read from the built files. */
export async function packageNodes(): Promise<PackageNode[]> {
	const { createRequire } = await import('node:module');
	const req = createRequire(path.join(REPO, 'package.json'));
	const nodes: PackageNode[] = [];
	for (const file of readPackageJson().n8n.nodes) {
		const abs = path.join(REPO, file);
		if (!existsSync(abs)) throw new Error(`${file} (package.json "n8n".nodes) is not built`);
		const mod = req(abs) as Record<
			string,
			new () => {
				description: {
					name: string;
					displayName: string;
					group: string[];
					description: string;
					properties: Array<Record<string, unknown>>;
				};
			}
		>;
		for (const Cls of Object.values(mod)) {
			if (typeof Cls !== 'function') continue;
			const { description } = new Cls();
			if (!description?.name) continue;
			nodes.push({
				file,
				name: description.name,
				displayName: description.displayName,
				type: nodeType(description.name),
				isTrigger: description.group.includes('trigger'),
				description: description.description,
				properties: description.properties,
			});
		}
	}
	return nodes;
}

async function defaultScopes(): Promise<string> {
	try {
		const { createRequire } = await import('node:module');
		const req = createRequire(path.join(REPO, 'package.json'));
		const file = readPackageJson().n8n.credentials.find((c) => /OAuth2/i.test(c));
		if (file) {
			const mod = req(path.join(REPO, file)) as Record<string, unknown>;
			if (typeof mod.DEFAULT_SCOPES === 'object' && Array.isArray(mod.DEFAULT_SCOPES))
				return mod.DEFAULT_SCOPES.join(',');
			for (const Cls of Object.values(mod)) {
				if (typeof Cls !== 'function') continue;
				const props =
					new (Cls as new () => { properties?: Array<{ name: string; default: unknown }> })()
						.properties ?? [];
				const scope = props.find((p) => p.name === 'scope');
				if (typeof scope?.default === 'string' && !scope.default.startsWith('='))
					return scope.default;
			}
		}
	} catch {
		// fall through to the contract's list
	}
	return FALLBACK_SCOPES;
}

/** Authorization-code grant against the sandbox, exactly as a browser + n8n would do it (docs/protocol.md §2.1). */
export async function codeGrant(
	sandboxUrl: string,
	client: { clientId: string; clientSecret: string; redirectUri: string; scope: string },
): Promise<Record<string, unknown>> {
	const auth = new URL('/oauth/v2/auth', sandboxUrl);
	auth.search = new URLSearchParams({
		response_type: 'code',
		client_id: client.clientId,
		redirect_uri: client.redirectUri,
		scope: client.scope,
		access_type: 'offline',
	}).toString();
	const approval = await fetch(auth, { redirect: 'manual' });
	const location = approval.headers.get('location');
	const code = location ? new URL(location).searchParams.get('code') : null;
	if (approval.status !== 302 || !code) {
		throw new Error(
			`sandbox authorize answered ${approval.status} ${await approval.text()} (no ?code= in Location ${location})`,
		);
	}
	const tokenRes = await fetch(new URL('/oauth/v2/token', sandboxUrl), {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			grant_type: 'authorization_code',
			client_id: client.clientId,
			client_secret: client.clientSecret,
			redirect_uri: client.redirectUri,
			code,
		}),
	});
	const token = (await tokenRes.json()) as Record<string, unknown>;
	if (!token.access_token)
		throw new Error(`sandbox token endpoint answered ${tokenRes.status} ${JSON.stringify(token)}`);
	return token;
}

/** Minimal cookie-keeping client for n8n's REST API. */
export class N8nClient {
	private cookie = '';
	readonly baseUrl: string;
	constructor(baseUrl: string) {
		this.baseUrl = baseUrl;
	}

	async request<T = unknown>(
		method: string,
		url: string,
		body?: unknown,
	): Promise<{ status: number; data: T }> {
		const res = await fetch(new URL(url, this.baseUrl), {
			method,
			headers: {
				...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
				...(this.cookie ? { Cookie: this.cookie } : {}),
				// 2.x rejects browser-less writes without a "browser id" only for some routes; harmless elsewhere
				'browser-id': 'crm-start-script',
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth;
		const text = await res.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON
		}
		const data = (
			parsed && typeof parsed === 'object' && 'data' in parsed
				? (parsed as { data: unknown }).data
				: parsed
		) as T;
		return { status: res.status, data };
	}

	async login(email: string, password: string): Promise<void> {
		const res = await this.request('POST', '/rest/login', { emailOrLdapLoginId: email, password });
		if (res.status !== 200)
			throw new Error(`n8n login as ${email} failed: ${res.status} ${JSON.stringify(res.data)}`);
	}
}

function hashOf(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

async function portFree(port: number): Promise<boolean> {
	const net = await import('node:net');
	return await new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** Reads what n8n appends to its log: to spot its "ready" line and, with --verbose, to echo it. */
function followLog(
	file: string,
	from: number,
	echo?: (text: string) => void,
): { seen(text: string): boolean; stop(): void } {
	let offset = from;
	let buffer = '';
	const timer = setInterval(() => {
		try {
			const size = statSync(file).size;
			if (size <= offset) return;
			const fd = openSync(file, 'r');
			const chunk = Buffer.alloc(size - offset);
			readSync(fd, chunk, 0, chunk.length, offset);
			closeSync(fd);
			offset = size;
			const text = chunk.toString('utf8');
			echo?.(text);
			buffer = (buffer + text).slice(-20_000);
		} catch {
			// log rotated or removed: ignore
		}
	}, 250);
	return {
		seen: (text) => buffer.includes(text),
		stop: () => clearInterval(timer),
	};
}

/** An n8n left running by a `npm start` / e2e run that was killed hard (its parent is gone): stop it. */
async function stopStaleN8n(pidFile: string, log: (msg: string) => void): Promise<void> {
	if (!existsSync(pidFile)) return;
	try {
		const { n8n, parent } = JSON.parse(readFileSync(pidFile, 'utf8')) as {
			n8n: number;
			parent: number;
		};
		const cmdline = existsSync(`/proc/${n8n}/cmdline`)
			? readFileSync(`/proc/${n8n}/cmdline`, 'utf8')
			: '';
		if (alive(n8n) && !alive(parent) && cmdline.includes(path.join('n8n', 'bin', 'n8n'))) {
			log(`Stopping n8n (pid ${n8n}) left over from an earlier run…`);
			for (const sig of ['SIGTERM', 'SIGKILL'] as const) {
				try {
					process.kill(-n8n, sig);
				} catch {
					// gone
				}
				for (let i = 0; i < 20 && alive(n8n); i++) await sleep(500);
				if (!alive(n8n)) break;
			}
		}
	} catch {
		// unreadable pid file: nothing to do
	}
	rmSync(pidFile, { force: true });
}

/** Kills a detached child's whole process group: SIGTERM, then SIGKILL after `graceMs`. */
async function stopProcessGroup(child: ChildProcess, graceMs: number): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const signal = (sig: NodeJS.Signals) => {
		try {
			process.kill(-child.pid!, sig);
		} catch {
			// already gone
		}
	};
	signal('SIGTERM');
	const timer = sleep(graceMs).then(() => 'timeout' as const);
	if ((await Promise.race([exited.then(() => 'exited' as const), timer])) === 'timeout') {
		signal('SIGKILL');
		await exited;
	}
	signal('SIGKILL'); // leftovers of the group (task runner)
}

/** Example workflows as files; credentials are pointed at `credential`. */
export function loadExamples(credential: {
	id: string;
	name: string;
}): Array<{ file: string; id: string; name: string; json: Record<string, unknown> }> {
	if (!existsSync(EXAMPLES_DIR)) return [];
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => {
			const json = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as {
				id: string;
				name: string;
				nodes: Array<{ credentials?: Record<string, { id: string; name: string }> }>;
			};
			for (const node of json.nodes) {
				for (const [type, ref] of Object.entries(node.credentials ?? {})) {
					if (type === 'crmOAuth2Api') node.credentials![type] = { ...ref, ...credential };
				}
			}
			return {
				file,
				id: json.id,
				name: json.name,
				json: json as unknown as Record<string, unknown>,
			};
		});
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
	const log = options.log ?? ((msg: string) => console.log(msg));
	const port = options.port ?? 5678;
	const sandboxPort = options.sandboxPort ?? 4010;
	const home = path.resolve(options.home ?? path.join(RUNTIME_DIR, 'home'));
	const sandboxDb =
		options.sandboxDb === ':memory:'
			? ':memory:'
			: path.resolve(options.sandboxDb ?? path.join(REPO, '.sandbox-data', 'sandbox.db'));
	const editorUrl = `http://127.0.0.1:${port}`;
	const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
	const cleanups: Array<() => Promise<void>> = [];
	const stop = async () => {
		while (cleanups.length) await cleanups.pop()!().catch((e) => log(`cleanup: ${String(e)}`));
	};

	const pidFile = path.join(home, 'n8n.pid.json');
	try {
		await stopStaleN8n(pidFile, log);
		for (const [what, p] of [
			['n8n', port],
			['sandbox', sandboxPort],
		] as const) {
			if (!(await portFree(p)))
				throw new Error(
					`port ${p} for the ${what} is in use (another \`npm start\` or \`npm run sandbox\`?); stop it or pass --${what === 'n8n' ? 'port' : 'sandbox-port'}`,
				);
		}

		if (options.build !== false) {
			const t = Date.now();
			log('Building the package (npm run build)…');
			const buildLog = path.join(RUNTIME_DIR, 'build.log');
			mkdirSync(RUNTIME_DIR, { recursive: true });
			writeFileSync(buildLog, '');
			try {
				await run('npm', ['run', 'build'], { cwd: REPO, logFile: buildLog });
			} catch (error) {
				process.stderr.write(readFileSync(buildLog, 'utf8'));
				throw error;
			}
			log(`  built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
		}
		const nodes = await packageNodes();
		const n8nBin = await ensureN8n(log, options.n8n);
		const n8nVersion = options.n8n?.version ?? N8N_VERSION;

		if (options.fresh) {
			rmSync(home, { recursive: true, force: true });
			if (sandboxDb !== ':memory:')
				for (const f of [sandboxDb, `${sandboxDb}-wal`, `${sandboxDb}-shm`])
					rmSync(f, { force: true });
		}
		mkdirSync(home, { recursive: true });
		if (sandboxDb !== ':memory:') mkdirSync(path.dirname(sandboxDb), { recursive: true });

		// --- sandbox (in this process) ---
		const { startSandbox } = (await import(path.join(REPO, 'sandbox', 'server.ts'))) as {
			startSandbox: (
				o: Record<string, unknown>,
			) => Promise<{ url: string; close(): Promise<void> }>;
		};
		const sandbox = await startSandbox({
			port: sandboxPort,
			host: '127.0.0.1',
			dbPath: sandboxDb,
			publicOrigin: sandboxUrl,
			demo: true,
		});
		cleanups.push(() => sandbox.close());
		log(
			`CRM sandbox on ${sandboxUrl} (data ${sandboxDb === ':memory:' ? 'in memory' : path.relative(REPO, sandboxDb)})`,
		);

		// --- credential: real code grant against the sandbox ---
		const client = { clientId: 'n8n-local', clientSecret: 'n8n-local-secret' };
		const scope = await defaultScopes();
		const redirectUri = `${editorUrl}/rest/oauth2-credential/callback`;
		const token = await codeGrant(sandboxUrl, { ...client, redirectUri, scope });
		const importDir = path.join(home, 'import');
		mkdirSync(path.join(importDir, 'workflows'), { recursive: true });
		const credentialsFile = path.join(importDir, 'credentials.json');
		writeFileSync(
			credentialsFile,
			JSON.stringify(
				[
					{
						...EXAMPLE_CREDENTIAL,
						type: 'crmOAuth2Api',
						data: {
							environment: 'sandbox',
							sandboxUrl,
							apiVariant: 'v2.1',
							// the fields of the credential form (the client fields n8n reads take these values)
							crmScope: scope,
							crmClientId: client.clientId,
							crmClientSecret: client.clientSecret,
							oauthTokenData: token,
						},
					},
				],
				null,
				2,
			),
		);

		const runnerBrokerPort = String(port + 1000);
		const cliEnv = childEnv({
			...n8nLocalEnv(editorUrl),
			N8N_USER_FOLDER: home,
			N8N_PORT: String(port),
			N8N_WEBHOOK_URL: `${editorUrl}/`,
			// the task-runner broker of `n8n start` (default 5679) must not collide with another stack's editor port
			N8N_RUNNERS_BROKER_PORT: runnerBrokerPort,
			...options.n8nEnv,
		});
		const n8nLog = path.join(home, 'n8n.log');
		writeFileSync(
			n8nLog,
			`n8n ${n8nVersion} started by scripts/start.mts at ${new Date().toISOString()}\n`,
		);
		// one-off CLI commands get a broker port of their own
		const cli = async (args: string[]) => {
			const t = Date.now();
			await run(process.execPath, [n8nBin, ...args], {
				cwd: home,
				logFile: n8nLog,
				env: { ...cliEnv, N8N_RUNNERS_BROKER_PORT: String(port + 1001) },
			});
			return ((Date.now() - t) / 1000).toFixed(1);
		};

		// the package, as the Community Nodes panel installs it (before n8n starts: it loads packages at start)
		const installed = await installPackageInto(home, log);

		log('Importing the credential into n8n (n8n import:credentials)…');
		log(
			`  done in ${await cli(['import:credentials', `--input=${credentialsFile}`])} s: "${EXAMPLE_CREDENTIAL.name}" (${EXAMPLE_CREDENTIAL.id}), token from a code grant against the sandbox`,
		);
		// the CLI command above ran n8n's migrations: record the package where Settings → Community Nodes reads it
		await registerInstalledPackage(home, installed);

		// example workflows: imported when new or changed, so edits made in the editor survive restarts
		const examples = loadExamples(EXAMPLE_CREDENTIAL);
		const stampFile = path.join(home, 'examples-imported.json');
		const stamp = (
			existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : {}
		) as Record<string, string>;
		const changed = examples.filter((e) => stamp[e.id] !== hashOf(JSON.stringify(e.json)));
		if (changed.length) {
			rmSync(path.join(importDir, 'workflows'), { recursive: true, force: true });
			mkdirSync(path.join(importDir, 'workflows'));
			for (const e of changed)
				writeFileSync(path.join(importDir, 'workflows', e.file), JSON.stringify(e.json, null, 2));
			log(`Importing ${changed.length} example workflow(s) (n8n import:workflow)…`);
			log(
				`  done in ${await cli(['import:workflow', '--separate', `--input=${path.join(importDir, 'workflows')}`])} s`,
			);
			for (const e of changed) stamp[e.id] = hashOf(JSON.stringify(e.json));
			writeFileSync(stampFile, JSON.stringify(stamp, null, 2));
		}

		// --- n8n ---
		log(`Starting n8n ${n8nVersion} (log: ${path.relative(process.cwd(), n8nLog)})…`);
		const t0 = Date.now();
		// n8n writes straight into its log file: it never depends on this process's pipes
		const logStart = statSync(n8nLog).size;
		const logFd = openSync(n8nLog, 'a');
		const child = spawn(process.execPath, [n8nBin, 'start'], {
			cwd: home,
			env: cliEnv,
			detached: true,
			stdio: ['ignore', logFd, logFd],
		});
		closeSync(logFd);
		writeFileSync(pidFile, JSON.stringify({ n8n: child.pid, parent: process.pid, port }));
		let exitInfo: string | undefined;
		const exited = new Promise<string>((resolve) =>
			child.on('exit', (code, sig) =>
				resolve((exitInfo = `n8n exited (${sig ?? code}); see ${n8nLog}`)),
			),
		);
		const follower = followLog(
			n8nLog,
			logStart,
			options.verbose ? (text) => process.stdout.write(text) : undefined,
		);
		cleanups.push(async () => {
			await stopProcessGroup(child, 10_000);
			rmSync(pidFile, { force: true });
			follower.stop();
		});

		const api = new N8nClient(editorUrl);
		// the HTTP port opens before the REST controllers exist: wait for n8n's own "ready" line
		await waitFor(
			'the n8n editor',
			180_000,
			async () => (follower.seen('Editor is now accessible') ? true : undefined),
			() => exitInfo,
		);
		const settings = await waitFor('n8n settings', 30_000, async () => {
			const res = await api.request<{ userManagement?: { showSetupOnFirstLoad?: boolean } }>(
				'GET',
				'/rest/settings',
			);
			return res.status === 200 && typeof res.data === 'object' ? res.data : undefined;
		});
		log(`  n8n up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

		if (settings.userManagement?.showSetupOnFirstLoad) {
			const res = await api.request('POST', '/rest/owner/setup', {
				email: OWNER.email,
				firstName: OWNER.firstName,
				lastName: OWNER.lastName,
				password: OWNER.password,
			});
			if (res.status !== 200)
				throw new Error(`owner setup failed: ${res.status} ${JSON.stringify(res.data)}`);
			log(`Owner account created: ${OWNER.email}`);
		}
		await api.login(OWNER.email, OWNER.password).catch((error) => {
			throw new Error(
				`${String(error)}. The editor folder ${home} has another owner; run \`npm start -- --fresh\` to start over.`,
			);
		});

		return {
			editorUrl,
			sandboxUrl,
			owner: OWNER,
			home,
			n8nLog,
			credentialId: EXAMPLE_CREDENTIAL.id,
			packageVersion: installed.version,
			workflows: examples.map((e) => ({ id: e.id, name: e.name, file: e.file })),
			nodes,
			cliEnv,
			n8nBin,
			n8nVersion,
			exited,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

function parseArgs(argv: string[]): StackOptions {
	const opts: StackOptions = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const value = () => {
			const v = argv[++i];
			if (v === undefined) throw new Error(`${arg} needs a value`);
			return v;
		};
		if (arg === '--fresh') opts.fresh = true;
		else if (arg === '--no-build') opts.build = false;
		else if (arg === '--verbose') opts.verbose = true;
		else if (arg === '--port') opts.port = Number(value());
		else if (arg === '--sandbox-port') opts.sandboxPort = Number(value());
		else if (arg === '--help' || arg === '-h') {
			console.log(
				'npm start [-- --fresh] [--no-build] [--port 5678] [--sandbox-port 4010] [--verbose]',
			);
			process.exit(0);
		} else throw new Error(`unknown option ${arg} (try --help)`);
	}
	return opts;
}

async function main(): Promise<void> {
	const opts = parseArgs(process.argv.slice(2));
	if (process.env.N8N_PORT && !opts.port) opts.port = Number(process.env.N8N_PORT);
	if (process.env.SANDBOX_PORT && !opts.sandboxPort)
		opts.sandboxPort = Number(process.env.SANDBOX_PORT);
	const started = Date.now();
	const running: { stack?: Stack } = {};
	let stopping = false;
	const shutdown = async (why: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${why}: stopping n8n and the sandbox…`);
		await running.stack?.stop();
		console.log('Stopped.');
		process.exit(0);
	};
	process.on('SIGINT', () => void shutdown('Ctrl-C'));
	process.on('SIGTERM', () => void shutdown('SIGTERM'));

	const stack = await startStack({ ...opts, log: (m) => !stopping && console.log(m) });
	running.stack = stack;
	if (stopping) return;
	const line = '─'.repeat(64);
	console.log(`\n${line}`);
	console.log(
		`n8n editor:   ${stack.editorUrl}   (ready in ${Math.round((Date.now() - started) / 1000)} s)`,
	);
	console.log(
		`Sandbox page: ${stack.sandboxUrl}/   (the CRM's records, notification deliveries, API calls, settings)`,
	);
	console.log(`Login:        ${stack.owner.email} / ${stack.owner.password}`);
	console.log(
		`Credential:   "${EXAMPLE_CREDENTIAL.name}" (crmOAuth2Api), connected to the sandbox`,
	);
	console.log(`CRM sandbox:  ${stack.sandboxUrl}   (demo data; test hooks under /__sandbox)`);
	console.log(
		`Package:      n8n-nodes-crm-service@${stack.packageVersion}, installed from its tarball into ${path.join(stack.home, '.n8n', 'nodes')}`,
	);
	console.log(`Nodes:        ${stack.nodes.map((n) => `${n.displayName} (${n.type})`).join(', ')}`);
	console.log('Workflows:');
	for (const w of stack.workflows) console.log(`  ${stack.editorUrl}/workflow/${w.id}   ${w.name}`);
	console.log(`n8n log:      ${stack.n8nLog}`);
	console.log(`${line}\nPress Ctrl-C to stop everything.`);
	// n8n dying on its own ends `npm start` too
	const why = await stack.exited;
	if (stopping) return;
	stopping = true;
	console.error(why);
	await stack.stop();
	process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
	main().catch((error) => {
		console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	});
}
