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
	close(): Promise<void>;
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
		close: async () =>
			await new Promise<void>((resolve) => {
				proxy.server.closeAllConnections();
				proxy.server.close(() => resolve());
			}),
	};
	proxy.server = createServer((req, res) => {
		const target = proxy.backends[next++ % proxy.backends.length];
		proxy.forwarded.set(target, (proxy.forwarded.get(target) ?? 0) + 1);
		const upstream = request(
			{
				host: '127.0.0.1',
				port: target,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: `127.0.0.1:${target}` },
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			if (res.headersSent) res.destroy();
			else {
				res.writeHead(502, { 'Content-Type': 'text/plain' });
				res.end(`proxy: backend 127.0.0.1:${target} failed: ${error.message}`);
			}
		});
		// a client that goes away (the CRM's answer timeout) takes the upstream request with it
		res.on('close', () => {
			if (!res.writableFinished) upstream.destroy();
		});
		req.pipe(upstream);
	});
	await new Promise<void>((resolve, reject) => {
		proxy.server.once('error', reject);
		proxy.server.listen(port, '127.0.0.1', () => resolve());
	});
	return proxy;
}
