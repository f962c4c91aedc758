// n8n's processes in the scale run: their environment, when each is ready, and the peak memory of
// their process groups.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { REPO, childEnv } from '../n8n-runtime.mts';
import { BENCH, FLOOR_NODE_DIR } from './options.mts';
import { procs, readFrom, waitFor } from './processes.mts';
import type { Proc } from './processes.mts';

// ---- n8n -------------------------------------------------------------------------------------------

export interface N8nProc extends Proc {
	role: 'main' | 'webhook' | 'worker';
	folder: string;
}

export function n8nEnv(
	base: Record<string, string>,
	perProcess: Record<string, string>,
): NodeJS.ProcessEnv {
	// N8N_CUSTOM_EXTENSIONS off: the nodes come from the package installed in each user folder
	// (the bench's floor trigger is the one custom extension, --bench-trigger only)
	return childEnv({
		...base,
		...perProcess,
		N8N_CUSTOM_EXTENSIONS: BENCH ? FLOOR_NODE_DIR : undefined,
	});
}

export const READY: Record<N8nProc['role'], string> = {
	main: 'Editor is now accessible',
	webhook: 'Webhook listener waiting for requests',
	worker: 'n8n worker is now ready',
};

export async function waitReady(p: N8nProc, timeoutMs = 240_000): Promise<number> {
	const t = Date.now();
	await waitFor(`${p.name} to be ready (log ${path.relative(REPO, p.log)})`, timeoutMs, () => {
		if (p.exited) throw new Error(`${p.name} exited (${p.exited}); see ${p.log}`);
		return readFrom(p.log, p.logStart).includes(READY[p.role]) ? true : undefined;
	});
	return Date.now() - t;
}

// ---- peak memory of process groups ------------------------------------------------------------

export const peaks = new Map<string, { hwm: number; rss: number }>();

export function procStatus(pid: number): { rss: number; hwm: number } | undefined {
	try {
		const text = readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (key: string) =>
			Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
		return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
	} catch {
		return undefined;
	}
}

/** Samples VmHWM/VmRSS of each n8n process and of the other members of its group (task runners). */
export function sampleMemory(): void {
	const groups = new Map<number, string>();
	for (const p of procs) if (!p.exited) groups.set(p.pid, p.name);
	if (groups.size === 0) return;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat: string;
		try {
			stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue;
		}
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const pgrp = Number(fields[2]);
		const name = groups.get(pgrp);
		if (!name) continue;
		const pid = Number(entry);
		const key = pid === pgrp ? name : `${name} task runner`;
		const s = procStatus(pid);
		if (!s) continue;
		const prev = peaks.get(key) ?? { hwm: 0, rss: 0 };
		peaks.set(key, { hwm: Math.max(prev.hwm, s.hwm), rss: Math.max(prev.rss, s.rss) });
	}
	const self = procStatus(process.pid);
	if (self) {
		const prev = peaks.get('test:scale + sandbox') ?? { hwm: 0, rss: 0 };
		peaks.set('test:scale + sandbox', {
			hwm: Math.max(prev.hwm, self.hwm),
			rss: Math.max(prev.rss, self.rss),
		});
	}
}
