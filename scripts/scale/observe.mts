// What test:scale reads of the sandbox's traffic beside its request log: which process sent each
// OAuth token call (the sandbox cannot tell n8n's processes apart: they all come from loopback), and
// the §7 refusals (429) of the request log grouped by operation.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface TokenCall {
	/** the process that opened the connection (an n8n process of the run, `test:scale`, or `?`) */
	process: string;
	/** an access token was issued with a new refresh token (code grant) or without (refresh) */
	grant: 'code' | 'refresh' | 'refused';
	status: number;
	/** `error` of a refused call (§2.1: `access_denied` when an issuance limit is hit) */
	error?: string;
	at: number;
}

/** Socket inode of the loopback connection from `clientPort` to `serverPort` (/proc/net/tcp). */
function socketInode(clientPort: number, serverPort: number): string | undefined {
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try {
			text = readFileSync(table, 'utf8');
		} catch {
			continue;
		}
		for (const line of text.split('\n').slice(1)) {
			const f = line.trim().split(/\s+/);
			if (f.length < 10) continue;
			const local = parseInt(f[1].split(':').at(-1) ?? '', 16);
			const remote = parseInt(f[2].split(':').at(-1) ?? '', 16);
			if (local === clientPort && remote === serverPort && f[9] !== '0') return f[9];
		}
	}
	return undefined;
}

/** Which of `pids` holds the socket `inode` open. */
function ownerOf(inode: string, pids: Map<number, string>): string | undefined {
	const link = `socket:[${inode}]`;
	for (const [pid, name] of pids) {
		let fds: string[] = [];
		try {
			fds = readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			try {
				if (readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return name;
			} catch {
				// closed meanwhile
			}
		}
	}
	return undefined;
}

/**
 * Records every call of the sandbox's token endpoint with the process that sent it. Listens beside
 * the sandbox's own request handler (it never answers); `processes` names the live candidates.
 */
export function watchTokenCalls(
	server: Server,
	serverPort: number,
	processes: () => Map<number, string>,
): TokenCall[] {
	const calls: TokenCall[] = [];
	server.on('request', (req: IncomingMessage, res: ServerResponse) => {
		if (!req.url?.startsWith('/oauth/v2/token') || req.url.startsWith('/oauth/v2/token/revoke'))
			return;
		const inode = socketInode(req.socket.remotePort ?? 0, serverPort);
		const call: TokenCall = {
			process: (inode && ownerOf(inode, processes())) || '?',
			grant: 'refused',
			status: 0,
			at: Date.now(),
		};
		const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
		(res as { end: unknown }).end = (...args: unknown[]) => {
			const answer = typeof args[0] === 'string' || Buffer.isBuffer(args[0]) ? String(args[0]) : '';
			try {
				const parsed = JSON.parse(answer) as {
					error?: string;
					access_token?: string;
					refresh_token?: string;
				};
				call.error = parsed.error;
				if (parsed.access_token) call.grant = parsed.refresh_token ? 'code' : 'refresh';
			} catch {
				// not JSON
			}
			return end(...args);
		};
		res.on('finish', () => {
			call.status = res.statusCode;
			calls.push(call);
		});
	});
	return calls;
}

/** `METHOD /path` of a logged request, ids and query left out (`PUT /crm/v2.1/Leads`). */
export function operationOf(method: string, url: string): string {
	const pathname = url.split('?')[0].replace(/\/\d{6,}(?=\/|$)/g, '/:id');
	return `${method} ${pathname}`;
}

/** The 429 answers in a request log slice, by operation. */
export function refusalsByOperation(
	requests: Array<{ method: string; url: string; status: number }>,
): Map<string, number> {
	const out = new Map<string, number>();
	for (const r of requests) {
		if (r.status !== 429) continue;
		const op = operationOf(r.method, r.url);
		out.set(op, (out.get(op) ?? 0) + 1);
	}
	return out;
}

export function countBy<T>(list: T[], key: (t: T) => string): Map<string, number> {
	const out = new Map<string, number>();
	for (const item of list) out.set(key(item), (out.get(key(item)) ?? 0) + 1);
	return out;
}

export const formatCounts = (m: Map<string, number>): string =>
	[...m].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';

/** When requests whose URL `match`es reached the sandbox (before it answers them). */
export function watchRequestStarts(
	server: Server,
	match: (req: IncomingMessage) => boolean,
): number[] {
	const starts: number[] = [];
	server.on('request', (req: IncomingMessage) => {
		if (match(req)) starts.push(Date.now());
	});
	return starts;
}

/** The nearest-rank percentile `p` (0–100) of `values`; NaN when there are none. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
