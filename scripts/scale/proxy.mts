// A small round-robin HTTP load balancer on loopback, in front of n8n's webhook processes: each
// request goes to the next backend of the current list, as a load balancer without sticky sessions
// does; a backend that refuses the connection gets the request's 502 (the CRM retries it).
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';

export interface RoundRobinProxy {
	server: Server;
	/** backend ports, in turn; replace the list to add or drop a process */
	backends: number[];
	/** requests forwarded per backend port */
	forwarded: Map<number, number>;
	/**
	 * Every request's answer, timed uncensored: from its arrival to the backend's answer, also when
	 * the client stopped waiting first (a request whose body was whole goes on to its answer)
	 */
	answers: ProxiedAnswer[];
	close(): Promise<void>;
}

export interface ProxiedAnswer {
	path: string;
	/** arrival, epoch ms */
	at: number;
	/** arrival → the backend's status line, ms (undefined: none came) */
	ms?: number;
	status?: number;
	/** the client had gone before the answer */
	clientGone: boolean;
	/** the backend failed (connection refused or reset) */
	error?: string;
}

export async function startRoundRobinProxy(
	port: number,
	backends: number[],
): Promise<RoundRobinProxy> {
	let next = 0;
	const proxy: RoundRobinProxy = {
		server: undefined as unknown as Server,
		backends,
		forwarded: new Map(),
		answers: [],
		close: async () =>
			await new Promise<void>((resolve) => {
				proxy.server.closeAllConnections();
				proxy.server.close(() => resolve());
			}),
	};
	proxy.server = createServer((req, res) => {
		const target = proxy.backends[next++ % proxy.backends.length];
		proxy.forwarded.set(target, (proxy.forwarded.get(target) ?? 0) + 1);
		const answer: ProxiedAnswer = { path: req.url ?? '', at: Date.now(), clientGone: false };
		proxy.answers.push(answer);
		let bodySent = false;
		req.once('end', () => (bodySent = true));
		const upstream = request(
			{
				host: '127.0.0.1',
				port: target,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: `127.0.0.1:${target}` },
			},
			(upstreamAnswer) => {
				answer.ms = Date.now() - answer.at;
				answer.status = upstreamAnswer.statusCode;
				if (answer.clientGone) {
					upstreamAnswer.resume();
					return;
				}
				res.writeHead(upstreamAnswer.statusCode ?? 502, upstreamAnswer.headers);
				upstreamAnswer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			answer.error ??= error.message;
			if (answer.clientGone) return;
			if (res.headersSent) res.destroy();
			else {
				res.writeHead(502, { 'Content-Type': 'text/plain' });
				res.end(`proxy: backend 127.0.0.1:${target} failed: ${error.message}`);
			}
		});
		// a client that goes away (the CRM's answer timeout) takes the upstream request with it, unless
		// its body was whole: then n8n goes on with it as it would, and its answer is timed all the same
		res.on('close', () => {
			if (res.writableFinished) return;
			answer.clientGone = true;
			if (!bodySent) upstream.destroy();
		});
		req.pipe(upstream);
	});
	await new Promise<void>((resolve, reject) => {
		proxy.server.once('error', reject);
		proxy.server.listen(port, '127.0.0.1', () => resolve());
	});
	return proxy;
}
