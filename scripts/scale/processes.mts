// The processes the scale run owns: start, stop, the leftovers of an earlier run, clean-up on exit
// and on SIGINT/SIGTERM, and small helpers (ports, waits, log files).
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import {
	closeSync,
	existsSync,
	openSync,
	readFileSync,
	readSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { alive, waitFor as waitUntil } from '../n8n-runtime.mts';
import { checks } from './checks.mts';
import { RUN_DIR, STATE_DIR, VERBOSE, log, sleep } from './options.mts';
import { asPostgres, pgBinDir } from './services.mts';

// ---- clean-up, also on SIGINT/SIGTERM ----------------------------------------------------------

export const cleanups: Array<{ name: string; fn: () => Promise<void> }> = [];
export let cleaning: Promise<void> | undefined;
export function cleanup(): Promise<void> {
	cleaning ??= (async () => {
		while (cleanups.length) {
			const { name, fn } = cleanups.pop()!;
			await fn().catch((error) => console.error(`clean-up of ${name}: ${String(error)}`));
		}
	})();
	return cleaning;
}

export let interrupted = false;
/** Ctrl-C / SIGTERM at any point: stop everything the run started, print the count, exit. */
export function stopOnSignals(): void {
	for (const sig of ['SIGINT', 'SIGTERM'] as const) {
		process.on(sig, () => {
			if (interrupted) return;
			interrupted = true;
			console.log(`\n${sig}: stopping everything the run started…`);
			void cleanup().then(() => {
				console.log(
					`${checks.filter((c) => c.ok).length} passed, ${checks.filter((c) => !c.ok).length + 1} failed`,
				);
				process.exit(sig === 'SIGINT' ? 130 : 143);
			});
		});
	}
}

// ---- small helpers ------------------------------------------------------------------------------

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

export async function portFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** waitFor() that gives up at once when the run is interrupted (Ctrl-C, SIGTERM). */
export function waitFor<T>(
	what: string,
	timeoutMs: number,
	probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
	return waitUntil(what, timeoutMs, probe, () => (interrupted ? 'interrupted' : undefined));
}

export function commandExists(cmd: string): boolean {
	return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** The lines a log file gained since `from`. */
export function readFrom(file: string, from = 0): string {
	try {
		const size = statSync(file).size;
		if (size <= from) return '';
		const fd = openSync(file, 'r');
		const buffer = Buffer.alloc(size - from);
		readSync(fd, buffer, 0, buffer.length, from);
		closeSync(fd);
		return buffer.toString('utf8');
	} catch {
		return '';
	}
}

// ---- processes we own ---------------------------------------------------------------------------

export interface Proc {
	name: string;
	child: ChildProcess;
	pid: number;
	log: string;
	logStart: number;
	exited?: string;
}

export const PID_FILE = path.join(RUN_DIR, 'pids.json');
export const procs: Proc[] = [];

export function savePids(): void {
	const live = procs.filter((p) => !p.exited).map((p) => ({ name: p.name, pid: p.pid }));
	writeFileSync(
		PID_FILE,
		JSON.stringify({ parent: process.pid, stateDir: STATE_DIR, procs: live }),
	);
}

/** Starts a detached process group whose output goes straight to its log file. */
export function startProc(
	name: string,
	cmd: string,
	args: string[],
	opts: { cwd: string; env: NodeJS.ProcessEnv; log: string },
): Proc {
	// once clean-up has begun (error, Ctrl-C), nothing new may start: it would outlive the run
	if (cleaning) throw new Error(`not starting ${name}: the run is stopping`);
	const logStart = existsSync(opts.log) ? statSync(opts.log).size : 0;
	const fd = openSync(opts.log, 'a');
	const child = spawn(cmd, args, {
		cwd: opts.cwd,
		env: opts.env,
		detached: true,
		stdio: ['ignore', fd, fd],
	});
	closeSync(fd);
	const proc: Proc = { name, child, pid: child.pid!, log: opts.log, logStart };
	child.on('exit', (code, sig) => {
		proc.exited = `${sig ?? code}`;
		if (VERBOSE) log(`${name} exited (${proc.exited})`);
	});
	procs.push(proc);
	savePids();
	if (VERBOSE) {
		let offset = logStart;
		const timer = setInterval(() => {
			const text = readFrom(opts.log, offset);
			offset += Buffer.byteLength(text);
			if (text) process.stdout.write(text.replace(/^/gm, `${name}| `));
			if (proc.exited) clearInterval(timer);
		}, 500);
		timer.unref();
	}
	return proc;
}

export async function stopProc(proc: Proc, graceMs = 10_000): Promise<void> {
	const signal = (sig: NodeJS.Signals) => {
		try {
			process.kill(-proc.pid, sig);
		} catch {
			// the group is gone
		}
	};
	if (!proc.exited) {
		const exited = new Promise<void>((resolve) =>
			proc.exited ? resolve() : proc.child.once('exit', () => resolve()),
		);
		signal('SIGTERM');
		if (
			(await Promise.race([exited.then(() => 'exited'), sleep(graceMs).then(() => 'timeout')])) ===
			'timeout'
		) {
			signal('SIGKILL');
			await exited;
		}
	}
	signal('SIGKILL'); // what is left of the group (task runner)
	savePids();
}

/** Processes of an earlier run whose script is gone (killed hard): stop them, and its PostgreSQL. */
export async function stopLeftovers(): Promise<void> {
	if (existsSync(PID_FILE)) {
		try {
			const {
				parent,
				stateDir,
				procs: old,
			} = JSON.parse(readFileSync(PID_FILE, 'utf8')) as {
				parent: number;
				stateDir?: string;
				procs: Array<{ name: string; pid: number }>;
			};
			if (!alive(parent)) {
				const pgData = stateDir ? path.join(stateDir, 'pg', 'data') : '';
				if (pgData && existsSync(path.join(pgData, 'postmaster.pid'))) {
					log('stopping the PostgreSQL of an earlier run');
					asPostgres(
						path.join(pgBinDir(), 'pg_ctl'),
						['-D', pgData, 'stop', '-m', 'immediate'],
						path.join(RUN_DIR, 'leftover-pg.log'),
					);
				}
				for (const p of old) {
					if (!alive(p.pid)) continue;
					log(`stopping ${p.name} (pid ${p.pid}) left over from an earlier run`);
					try {
						process.kill(-p.pid, 'SIGKILL');
					} catch {
						// gone
					}
				}
				if (stateDir?.startsWith(path.join(os.tmpdir(), 'crm-scale-')))
					rmSync(stateDir, { recursive: true, force: true });
			} else if (parent !== process.pid) {
				throw new Error(`another test:scale run (pid ${parent}) uses ${RUN_DIR}`);
			}
		} catch (error) {
			if (String(error).includes('another test:scale')) throw error;
		}
	}
}
