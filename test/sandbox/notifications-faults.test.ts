// Contract tests of the sandbox's delivery faults (faults.ts, deliveries.ts; docs/protocol.md §9.4,
// §9.5) over HTTP: deliveries never sent, sent twice (after the first or at the same moment), answers
// lost and slow answers timed out — the last two retried with the same body.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Receiver, ReceivedRequest } from '../harness/receiver.ts';
import { startReceiver } from '../harness/receiver.ts';
import { useContractFixture } from '../harness/contract.ts';
import { api } from '../harness/sandbox.ts';
import { isFinal, sandboxDeliveries, waitFor } from '../harness/wait.ts';

let receiver: Receiver;
let nextChannel = 2000000068001;

const RETRY_DELAYS = [0, 50, 100];
const sb = useContractFixture({
	scope: 'CRM.modules.ALL,CRM.notifications.ALL',
	sandbox: { demo: false, deliveryRetryDelaysMs: RETRY_DELAYS, deliveryTimeoutMs: 2000 },
});

beforeAll(async () => {
	receiver = await startReceiver();
});

afterAll(async () => {
	await receiver.close();
});

let channelId: string;

beforeEach(async () => {
	receiver.respond = () => 200;
	receiver.received.length = 0;
	await api(`${sb.url}/__sandbox/deliveries`, undefined, { method: 'DELETE' });
	await api(`${sb.url}/__sandbox/fault-plan`, undefined, { method: 'DELETE' });
	channelId = String(nextChannel++);
	const res = await api(`${sb.url}/crm/v2.1/actions/watch`, sb.token, {
		method: 'POST',
		body: {
			watch: [
				{
					channel_id: channelId,
					events: ['Leads.create'],
					notify_url: `${receiver.url}/hook`,
					token: 'tok-faults',
				},
			],
		},
	});
	expect(res.status).toBe(200);
});

afterEach(async () => {
	await api(`${sb.url}/crm/v2.1/actions/watch?channel_ids=${channelId}`, sb.token, {
		method: 'DELETE',
	});
});

async function setPlan(plan: Record<string, unknown>): Promise<void> {
	const res = await api(`${sb.url}/__sandbox/fault-plan`, undefined, { method: 'PUT', body: plan });
	expect(res.status).toBe(200);
}

async function planStats(): Promise<Record<string, number>> {
	return (await api(`${sb.url}/__sandbox/fault-plan`)).body.stats;
}

async function createLeads(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const res = await api(`${sb.url}/crm/v2.1/Leads`, sb.token, {
			method: 'POST',
			body: { data: [{ Last_Name: `Fault ${i}` }] },
		});
		expect(res.status).toBe(201);
		ids.push(res.body.data[0].details.id);
	}
	return ids;
}

/** The channel's deliveries once none is pending and every copy and retry has been logged. */
async function settled(expected: number, timeoutMs = 5000): Promise<any[]> {
	return await waitFor(async () => await sandboxDeliveries(sb.url, channelId), {
		timeout: timeoutMs,
		what: 'deliveries settled',
		ok: (list) =>
			list.length >= expected &&
			list.every(
				(d) => isFinal(d) && (!(d as any).concurrent_copy || d.attempts.some((a) => a.copy)),
			),
	});
}

/** A body without the key a retry may change. */
const withoutTime = (r: ReceivedRequest) => {
	const { server_time: _time, ...rest } = r.body;
	void _time;
	return rest;
};

describe('delivery faults', () => {
	test('lostResponseRate 1: the receiver gets every attempt, the CRM retries all of them with the same body and a new server_time', async () => {
		await setPlan({ lostResponseRate: 1 });
		const [id] = await createLeads(1);
		const [delivery] = await settled(1);
		expect(delivery.outcome).toBe('failed');
		expect(delivery.attempts).toHaveLength(RETRY_DELAYS.length);
		// every attempt reached the receiver and was answered 200; the CRM recorded a timeout
		expect(
			delivery.attempts.every(
				(a: any) => a.status === 200 && a.lost === true && a.error === 'timeout',
			),
		).toBe(true);
		const got = await receiver.waitFor(RETRY_DELAYS.length);
		expect(got).toHaveLength(RETRY_DELAYS.length);
		expect(got.map((r) => r.body.ids)).toEqual(got.map(() => [id]));
		expect(new Set(got.map((r) => JSON.stringify(withoutTime(r)))).size).toBe(1);
		// §9.4: server_time is the send time of each attempt
		const times = got.map((r) => r.body.server_time as number);
		expect(times).toEqual([...times].sort((a, b) => a - b));
		expect(new Set(times).size).toBe(times.length);
		expect(delivery.attempts.map((a: any) => a.server_time)).toEqual(times);
		expect((await planStats()).lostResponses).toBe(RETRY_DELAYS.length);
	});

	test('lostResponseRate below 1: no delivery is lost end to end; a delivery stops at the first answer that arrives', async () => {
		await setPlan({ lostResponseRate: 0.4, seed: 3 });
		const ids = await createLeads(20);
		const list = await settled(20);
		const stats = await planStats();
		expect(stats.lostResponses).toBeGreaterThan(0);
		const lost = list.flatMap((d) => d.attempts).filter((a: any) => a.lost);
		expect(lost).toHaveLength(stats.lostResponses);
		for (const d of list) {
			// retries only after a lost answer; the last attempt is the first whose answer arrived
			const answered = d.attempts.findIndex((a: any) => !a.lost);
			if (d.outcome === 'delivered') expect(answered).toBe(d.attempts.length - 1);
			else expect(d.attempts.every((a: any) => a.lost)).toBe(true);
		}
		const received = await receiver.waitFor(list.reduce((n, d) => n + d.attempts.length, 0));
		expect(new Set(received.flatMap((r) => r.body.ids))).toEqual(new Set(ids));
	});

	test('retryKeepsServerTime: a retried delivery is byte-for-byte the same body', async () => {
		await setPlan({ lostResponseRate: 1, retryKeepsServerTime: true });
		await createLeads(1);
		await settled(1);
		const got = await receiver.waitFor(RETRY_DELAYS.length);
		expect(new Set(got.map((r) => JSON.stringify(r.body))).size).toBe(1);
	});

	test('deliveryTimeoutMs: an answer slower than the timeout is retried with the same body; the receiver saw every attempt', async () => {
		await setPlan({ deliveryTimeoutMs: 100 });
		receiver.respond = async () => {
			await new Promise((r) => setTimeout(r, 250));
			return 200;
		};
		const [id] = await createLeads(1);
		const [delivery] = await settled(1);
		expect(delivery.outcome).toBe('failed');
		expect(delivery.attempts.map((a: any) => a.error)).toEqual(RETRY_DELAYS.map(() => 'timeout'));
		expect(delivery.attempts.every((a: any) => a.status === undefined)).toBe(true);
		const got = await receiver.waitFor(RETRY_DELAYS.length, 5000);
		expect(got.map((r) => r.body.ids)).toEqual(got.map(() => [id]));
		expect(new Set(got.map((r) => JSON.stringify(withoutTime(r)))).size).toBe(1);
	});

	test('a timed-out attempt followed by a fast answer is delivered on the retry', async () => {
		// a receiver that answers requests concurrently: the first one slowly, the others at once
		let calls = 0;
		const server = createServer((req, res) => {
			const slow = ++calls === 1;
			req.resume();
			req.on('end', () =>
				setTimeout(
					() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'),
					slow ? 1000 : 0,
				),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
		try {
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow-first`;
			const patched = await api(`${sb.url}/crm/v2.1/actions/watch`, sb.token, {
				method: 'PATCH',
				body: { watch: [{ channel_id: channelId, notify_url: url }] },
			});
			expect(patched.status).toBe(200);
			await setPlan({ deliveryTimeoutMs: 300 });
			await createLeads(1);
			const [delivery] = await settled(1);
			expect(delivery.outcome).toBe('delivered');
			expect(delivery.attempts.map((a: any) => a.error ?? a.status)).toEqual(['timeout', 200]);
			expect(calls).toBe(2);
		} finally {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	test('concurrentDuplicateRate 1: the first attempt is sent twice at the same moment, same body', async () => {
		await setPlan({ concurrentDuplicateRate: 1 });
		receiver.respond = async () => {
			await new Promise((r) => setTimeout(r, 500));
			return 200;
		};
		await createLeads(1);
		const [delivery] = await settled(1);
		expect(delivery.outcome).toBe('delivered');
		expect(delivery.concurrent_copy).toBe(true);
		expect(delivery.attempts).toHaveLength(2);
		expect(delivery.attempts.filter((a: any) => a.copy)).toHaveLength(1);
		const got = await receiver.waitFor(2);
		expect(JSON.stringify(got[0].body)).toBe(JSON.stringify(got[1].body));
		// both copies arrived before the first was answered (the receiver answers after 500 ms, one at a time)
		expect(Math.abs(got[1].at - got[0].at)).toBeLessThan(500);
		expect((await planStats()).concurrentDuplicates).toBe(1);
	});

	test('duplicateDeliveryRate 1: a second copy with the same body after the first was acknowledged', async () => {
		await setPlan({ duplicateDeliveryRate: 1 });
		await createLeads(1);
		await settled(1);
		// the copy goes out once the first attempt is acknowledged: its attempt is logged when it was sent
		const [delivery] = await waitFor(async () => await sandboxDeliveries(sb.url, channelId), {
			timeout: 5000,
			what: 'the copy sent after the acknowledgment',
			ok: (list) => list.length >= 1 && list[0].attempts.length >= 2,
		});
		expect(delivery.outcome).toBe('delivered');
		expect(delivery.attempts.map((a: any) => !!a.copy)).toEqual([false, true]);
		const got = await receiver.waitFor(2);
		expect(JSON.stringify(got[0].body)).toBe(JSON.stringify(got[1].body));
		expect((await planStats()).duplicatedDeliveries).toBe(1);
	});

	test('dropDeliveryRate 1: never sent (a loss on the CRM side, outcome "dropped")', async () => {
		await setPlan({ dropDeliveryRate: 1 });
		await createLeads(2);
		const list = await settled(2);
		expect(list.map((d) => d.outcome)).toEqual(['dropped', 'dropped']);
		expect(list.every((d) => d.attempts.length === 0)).toBe(true);
		// "dropped" is final from the moment the change is logged: the sandbox never sends it
		expect(receiver.received).toHaveLength(0);
		expect((await planStats()).droppedDeliveries).toBe(2);
	});

	test('delivery retry policy "none": a failed attempt is never re-sent; the policy is read back and can be set again', async () => {
		const set = async (policy: string) =>
			await api(`${sb.url}/__sandbox/delivery-retries`, undefined, {
				method: 'PUT',
				body: { policy },
			});
		const none = await set('none');
		expect(none.status).toBe(200);
		expect(none.body).toEqual({ policy: 'none', delays_ms: [0] });
		try {
			receiver.respond = () => 503;
			await createLeads(1);
			const [delivery] = await settled(1);
			expect(delivery.outcome).toBe('failed');
			expect(delivery.attempts.map((a: any) => a.status)).toEqual([503]);
			// nothing follows: the CRM of policy "none" sends once
			await new Promise((resolve) => setTimeout(resolve, 300));
			expect(receiver.received).toHaveLength(1);
			// a copy the fault plan would send after a success is not sent after a failure, and the
			// delivery is final
			await setPlan({ duplicateDeliveryRate: 1 });
			await createLeads(1);
			const list = await settled(2);
			expect(list[1].outcome).toBe('failed');
			expect(list[1].duplicates).toBeUndefined();
			expect(list[1].attempts).toHaveLength(1);
			const unknown = await set('often');
			expect(unknown.status).toBe(400);
			expect(unknown.body.code).toBe('INVALID_DATA');
			expect(unknown.body.details).toEqual({ api_name: 'policy' });
			expect(unknown.body.message).toContain('none or default');
		} finally {
			expect((await set('default')).body).toEqual({
				policy: 'default',
				delays_ms: [0, 1000, 2000],
			});
		}
	});
});
