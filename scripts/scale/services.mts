// The services of the scale run: a private PostgreSQL cluster and a Redis (installed with apt-get
// when missing), on free loopback ports.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import {
	chownSync,
	existsSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { run, runtimeRequire } from '../n8n-runtime.mts';
import { RUN_DIR, STATE_DIR, log, secs } from './options.mts';
import {
	cleanups,
	commandExists,
	freePort,
	readFrom,
	startProc,
	stopProc,
	waitFor,
} from './processes.mts';
import type { Proc } from './processes.mts';

// ---- PostgreSQL and Redis -------------------------------------------------------------------------

export function pgBinDir(): string {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root)
		? readdirSync(root)
				.filter((v) => /^\d+$/.test(v))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	for (const v of versions)
		if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
	const found = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
	if (found.status === 0 && existsSync(path.join(found.stdout.trim(), 'initdb')))
		return found.stdout.trim();
	throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found: install postgresql');
}

export const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary as user `postgres` when we are root (initdb refuses root). */
export function asPostgres(bin: string, args: string[], logFile: string): void {
	const [cmd, full] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
	const res = spawnSync(cmd, full, { encoding: 'utf8' });
	writeFileSync(
		logFile,
		`$ ${cmd} ${full.join(' ')}\n${res.stdout ?? ''}${res.stderr ?? ''}[exit ${res.status}]\n`,
		{ flag: 'a' },
	);
	if (res.status !== 0)
		throw new Error(`${path.basename(bin)} failed (exit ${res.status}); see ${logFile}`);
}

export interface Postgres {
	port: number;
	version: string;
	db: { host: string; port: number; database: string; user: string; password: string };
}

export async function startPostgres(): Promise<Postgres> {
	const bin = pgBinDir();
	const dir = path.join(STATE_DIR, 'pg');
	const data = path.join(dir, 'data');
	mkdirSync(dir, { recursive: true });
	const superPassword = randomBytes(12).toString('hex');
	const pwFile = path.join(dir, 'pwfile');
	writeFileSync(pwFile, `${superPassword}\n`, { mode: 0o600 });
	if (isRoot()) {
		const { uid, gid } = userIds('postgres');
		chownSync(dir, uid, gid);
		chownSync(pwFile, uid, gid);
	}
	const logFile = path.join(RUN_DIR, 'postgres.log');
	const t = Date.now();
	asPostgres(
		path.join(bin, 'initdb'),
		['-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwFile}`, '-E', 'UTF8'],
		logFile,
	);
	const port = await freePort();
	// a throw-away test cluster: durability settings off, loopback only, socket in our folder
	const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
	asPostgres(
		path.join(bin, 'pg_ctl'),
		[
			'-D',
			data,
			'-l',
			path.join(dir, 'server.log'),
			'-w',
			'-t',
			'60',
			'-o',
			serverOptions,
			'start',
		],
		logFile,
	);
	cleanups.push({
		name: 'PostgreSQL',
		fn: async () => {
			asPostgres(
				path.join(bin, 'pg_ctl'),
				['-D', data, '-w', '-t', '30', 'stop', '-m', 'fast'],
				logFile,
			);
			writeFileSync(
				path.join(RUN_DIR, 'postgres-server.log'),
				readFrom(path.join(dir, 'server.log')),
			);
		},
	});
	const db = {
		host: '127.0.0.1',
		port,
		database: 'n8n',
		user: 'n8n',
		password: randomBytes(12).toString('hex'),
	};
	const admin = pgClient({
		...db,
		user: 'postgres',
		password: superPassword,
		database: 'postgres',
	});
	await admin.connect();
	try {
		await admin.query(`create user n8n with password '${db.password}'`);
		await admin.query('create database n8n owner n8n');
		const version = String((await admin.query('show server_version')).rows[0].server_version);
		log(`PostgreSQL ${version} on 127.0.0.1:${port} (initdb + start in ${secs(Date.now() - t)} s)`);
		return { port, version, db };
	} finally {
		await admin.end();
	}
}

export function userIds(name: string): { uid: number; gid: number } {
	const line = readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((l) => l.startsWith(`${name}:`));
	if (!line) throw new Error(`user ${name} not found (is PostgreSQL installed?)`);
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

export interface PgClient {
	connect(): Promise<void>;
	query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
	end(): Promise<void>;
}

export function pgClient(config: Record<string, unknown>): PgClient {
	const { Client } = runtimeRequire('pg') as {
		Client: new (c: Record<string, unknown>) => PgClient;
	};
	return new Client(config);
}

/** `apt-get install -y <pkg>` (as root), with `apt-get update` first when the package lists are missing. */
export async function aptInstall(pkg: string): Promise<void> {
	if (!isRoot())
		throw new Error(`${pkg} is missing; install it (apt-get install ${pkg}) or run as root`);
	const logFile = path.join(RUN_DIR, 'apt.log');
	log(`${pkg} is missing: apt-get install -y ${pkg}…`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	try {
		await run('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
			cwd: RUN_DIR,
			logFile,
			env,
		});
	} catch {
		// a fresh machine may have no package lists yet
		await run('apt-get', ['update'], { cwd: RUN_DIR, logFile, env });
		await run('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
			cwd: RUN_DIR,
			logFile,
			env,
		});
	}
}

export async function ensureRedis(): Promise<void> {
	if (commandExists('redis-server')) return;
	await aptInstall('redis-server');
	if (!commandExists('redis-server'))
		throw new Error(
			`redis-server still missing after apt-get; see ${path.join(RUN_DIR, 'apt.log')}`,
		);
}

export async function redisPing(port: number): Promise<string> {
	return await new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
		socket.setTimeout(2000, () => socket.destroy(new Error('timeout')));
		socket.once('data', (d) => {
			socket.end();
			resolve(d.toString().trim());
		});
		socket.once('error', reject);
	});
}

export async function startRedis(): Promise<{ port: number; proc: Proc; version: string }> {
	const port = await freePort();
	const dir = path.join(STATE_DIR, 'redis');
	mkdirSync(dir, { recursive: true });
	const proc = startProc(
		'redis',
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--protected-mode',
			'yes',
		],
		{
			cwd: dir,
			env: process.env,
			log: path.join(RUN_DIR, 'redis.log'),
		},
	);
	cleanups.push({ name: 'Redis', fn: () => stopProc(proc, 5000) });
	await waitFor('Redis', 20_000, async () =>
		(await redisPing(port)) === '+PONG' ? true : undefined,
	);
	const version =
		/v=(\S+)/.exec(
			spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout ?? '',
		)?.[1] ?? '?';
	log(`Redis ${version} on 127.0.0.1:${port}`);
	return { port, proc, version };
}
