// A tiny node:http receiver on 127.0.0.1 for notification deliveries and callbacks: records every
// request and answers what `respond` says (default 200). Requests are handled one at a time, in
// arrival order, so a handler may drive a shared n8n context safely.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { waitFor } from './wait';

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: any;
	/** Date.now() when the body was complete */
	at: number;
	/** status answered */
	status?: number;
}

export type Responder = (
	req: ReceivedRequest,
) =>
	| number
	| { status: number; body?: unknown }
	| Promise<number | { status: number; body?: unknown }>;

export interface Receiver {
	url: string;
	received: ReceivedRequest[];
	respond: Responder;
	/** resolves once `count` requests (matching `filter`) arrived; rejects after `timeoutMs` */
	waitFor(
		count: number,
		timeoutMs?: number,
		filter?: (r: ReceivedRequest) => boolean,
	): Promise<ReceivedRequest[]>;
	close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => 200): Promise<Receiver> {
	let queue: Promise<void> = Promise.resolve();
	const receiver: Receiver = {
		url: '',
		received: [],
		respond,
		async waitFor(count, timeoutMs = 5000, filter = () => true) {
			return await waitFor(
				() => receiver.received.filter((r) => r.status !== undefined && filter(r)),
				{
					ok: (matching) => matching.length >= count,
					timeout: timeoutMs,
					what: `receiver: ${count} answered requests`,
				},
			);
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body: unknown = text;
			try {
				body = text ? JSON.parse(text) : undefined;
			} catch {
				body = text;
			}
			const entry: ReceivedRequest = {
				method: req.method ?? 'GET',
				path: req.url ?? '/',
				headers: req.headers,
				body,
				at: Date.now(),
			};
			receiver.received.push(entry);
			queue = queue.then(async () => {
				let answer: number | { status: number; body?: unknown };
				try {
					answer = await receiver.respond(entry);
				} catch (error) {
					console.error('[receiver] handler failed:', error);
					answer = 500;
				}
				const { status, body: out } =
					typeof answer === 'number' ? { status: answer, body: undefined } : answer;
				res.writeHead(status, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify(out ?? { status }));
				entry.status = status;
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return receiver;
}
