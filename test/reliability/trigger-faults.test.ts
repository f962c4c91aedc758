// Reliability of the CRM Trigger under injected delivery faults (sandbox/faults.ts): deliveries
// dropped or sent twice with the same body. A repeated delivery (same channel, server_time, module,
// operation and ids within 10 minutes; or the same changes: a created or deleted record, an edit
// with the same Modified_Time) is acknowledged with 200 and starts no execution; what slips through
// is dropped by the trigger's execute() in the production execution; a channel lost on the CRM side
// is re-created by checkExists() → create() at the next activation.
import type { INode } from 'n8n-workflow';

import { Latch, latch } from '../../nodes/CrmTrigger/processClaims';
import { deliveriesOf } from '../../sandbox/deliveries.ts';
import { crmFixture } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { startReceiver } from '../harness/receiver';
import type { Receiver } from '../harness/receiver';
import { crmTrigger, routeDeliveries } from '../harness/trigger';
import { deliveriesSettled, waitFor } from '../harness/wait';

const CHANGES = 120;

let crm: CrmFixture;
let receiver: Receiver;
let hookCounter = 0;

beforeAll(async () => {
	crm = await crmFixture({
		sandbox: { demo: false, deliveryRetryDelaysMs: [0, 20, 40], deliveryTimeoutMs: 5000 },
	});
	receiver = await startReceiver();
});
afterAll(async () => {
	await crm.close();
	await receiver.close();
});
afterEach(async () => {
	crm.running.sandbox.faultPlan.clear();
	receiver.respond = () => 200;
	receiver.received.length = 0;
});

/** An active trigger whose webhook URL is on the receiver; every POST there runs webhook() as n8n would. */
async function activeTrigger(parameters: INode['parameters']) {
	hookCounter++;
	const x = crmTrigger(crm, parameters, {
		origin: receiver.url,
		webhookId: `fa017000-0000-4000-8000-${String(hookCounter).padStart(12, '0')}`,
		// webhook() answers; the execution it starts runs afterwards, as n8n runs it
		executions: 'background',
	});
	routeDeliveries(receiver, x);
	await x.activate();
	return {
		...x,
		/** items of the executions that emitted any */
		get emitted() {
			return x.emitted().filter((items) => items.length > 0);
		},
		results: x.webhookResults,
		/** `run: false`: webhook() only */
		deliver: async (body: unknown, run = true) => await x.deliver(body, { execute: run }),
		deactivate: async () => await x.delete(),
	};
}

async function until<T>(probe: () => T, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
	return await waitFor(probe, { ok, timeout: timeoutMs, interval: 20 });
}

async function createLead(name: string): Promise<string> {
	const res = await crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: name }] });
	expect(res.status).toBe(201);
	return res.body.data[0].details.id;
}

describe('reliability › trigger under dropped and duplicated deliveries', () => {
	test(`${CHANGES} changes with 10 % deliveries dropped and 25 % duplicated: no record is emitted twice`, async () => {
		const x = await activeTrigger({
			modules: ['Leads'],
			events: ['create', 'edit'],
			output: 'ids',
		});
		const channelId = x.state().channelId as string;
		const deliveries = deliveriesOf(crm.running.sandbox)!;
		deliveries.log.length = 0;
		const { faultPlan } = crm.running.sandbox;
		faultPlan.set({ dropDeliveryRate: 0.1, duplicateDeliveryRate: 0.25, seed: 9 });

		const ids: string[] = [];
		for (let i = 0; i < CHANGES / 2; i++) ids.push(await createLead(`Delivery ${i}`));
		for (const id of ids)
			await crm.api('PUT', `/crm/v2.1/Leads/${id}`, { data: [{ Company: 'Edited under faults' }] });
		const stats = { ...faultPlan.stats };

		// every delivery settled, and every copy sent was answered
		const mine = () => deliveries.log.filter((d) => d.channel_id === channelId);
		// (a copy's attempt is logged when answered, after its delivery stopped counting it as to send:
		// settled once every delivery fated to be copied shows its copy)
		const copied = (log: ReturnType<typeof mine>) =>
			log.filter((d) => d.attempts.some((a) => a.copy)).length;
		await until(
			mine,
			(log) =>
				log.length === CHANGES &&
				log.every((d) => d.outcome !== 'pending' && !d.duplicates) &&
				copied(log) === stats.duplicatedDeliveries,
		);
		const sent = mine().reduce((n, d) => n + d.attempts.length, 0);
		await until(
			() => receiver.received.filter((r) => r.status !== undefined).length,
			(n) => n === sent,
		);

		const delivered = mine().filter((d) => d.outcome === 'delivered');
		const dropped = mine().filter((d) => d.outcome === 'dropped');
		// a copy is marked as such; an answer slower than the timeout under load adds a retry, not a copy
		const duplicated = delivered.filter((d) => d.attempts.some((a) => a.copy));
		expect(delivered.length + dropped.length).toBe(CHANGES);
		expect(stats.droppedDeliveries).toBe(dropped.length);
		expect(stats.duplicatedDeliveries).toBe(duplicated.length);
		expect(dropped.length).toBeGreaterThan(0);
		expect(duplicated.length).toBeGreaterThan(0);
		// both copies of a duplicated delivery carried the same body, and both were answered 200
		expect(receiver.received.every((r) => r.status === 200)).toBe(true);

		// exactly one execution per delivered change; the duplicates were acknowledged without one
		await x.settled();
		const emittedKeys = x.emitted.flat().map((item) => `${item.json.operation}:${item.json.id}`);
		const expectedKeys = delivered.flatMap((d) =>
			d.ids.map((id) => `${d.operation === 'insert' ? 'create' : 'edit'}:${id}`),
		);
		expect(new Set(emittedKeys).size).toBe(emittedKeys.length);
		expect(emittedKeys.sort()).toEqual(expectedKeys.sort());
		expect(x.emitted).toHaveLength(delivered.length);
		// every attempt after a delivery's first (its copy, or a retry after a slow answer) started nothing
		const repeats = delivered.reduce((n, d) => n + d.attempts.length - 1, 0);
		expect(x.results.filter((r) => r.workflowData === undefined)).toHaveLength(repeats);
		console.log(
			`trigger: changes: ${CHANGES}; faults injected: deliveries dropped=${dropped.length}, duplicated=${duplicated.length}; ` +
				`deliveries received: ${receiver.received.length}; executions: ${x.emitted.length}; records checked: ${emittedKeys.length} emitted once, ${CHANGES - emittedKeys.length} lost with dropped deliveries`,
		);
		await x.deactivate();
	});

	test('dedupe key: same channel + server_time + operation + ids (in any order), or for creates and deletes the same records', async () => {
		const x = await activeTrigger({ modules: ['Leads'], events: ['create'], output: 'ids' });
		const { channelId, token } = x.state();
		const body = {
			server_time: Date.now(),
			module: 'Leads',
			ids: ['1001', '1002'],
			operation: 'insert',
			channel_id: channelId,
			token,
			affected_fields: [],
		};
		expect((await x.deliver(body)).result.workflowData?.[0]).toHaveLength(2);
		// a repeat, ids reordered: 200 and no execution
		const repeat = await x.deliver({ ...body, ids: ['1002', '1001'] });
		expect(repeat).toMatchObject({
			status: 200,
			result: { webhookResponse: { status: 'duplicate' } },
		});
		expect(repeat.result.workflowData).toBeUndefined();
		// the create re-sent with a new server_time: the same records, so the same change
		expect(
			(await x.deliver({ ...body, server_time: body.server_time + 1 })).result.workflowData,
		).toBeUndefined();
		// partly known records: only the new one is emitted
		expect(
			(
				await x.deliver({ ...body, server_time: body.server_time + 2, ids: ['1002', '1003'] })
			).result.workflowData?.[0].map((i) => i.json.id),
		).toEqual(['1003']);
		// an edit of the same records is another change
		expect((await x.deliver({ ...body, operation: 'update' })).result.workflowData).toBeDefined();
		// a forged repeat is still refused before any dedupe bookkeeping
		expect((await x.deliver({ ...body, token: 'forged' })).status).toBe(401);
		await x.settled();
		expect(x.emitted).toHaveLength(3);

		// the same body after a restart (the process latch is empty): webhook() passes it on, and the
		// execution's claim in n8n's deduplication store stops it (once.test.ts)
		latch.clear();
		expect((await x.deliver(body, false)).result.workflowData).toBeDefined();
		console.log(
			`trigger dedupe: deliveries tried: ${x.results.length}, executions: ${x.emitted.length}`,
		);
		await x.deactivate();
		expect(x.state()).toEqual({});
	});

	test('the process latch: a key is claimed once within its window, forgotten after it, and at most maxEntries are kept (oldest first out)', () => {
		const l = new Latch(3);
		const t0 = 1_000_000;
		expect(l.claim('a', 1000, t0)).toBe(true);
		expect(l.claim('a', 1000, t0 + 999)).toBe(false);
		expect(l.claim('a', 1000, t0 + 1001)).toBe(true);
		for (const key of ['b', 'c', 'd']) expect(l.claim(key, 60_000, t0 + 2000)).toBe(true);
		expect(l.size).toBe(3);
		// 'a' was the oldest claim: evicted, so it can be claimed again; 'd' is still held
		expect(l.claim('a', 60_000, t0 + 2001)).toBe(true);
		expect(l.claim('d', 60_000, t0 + 2001)).toBe(false);
	});

	test('a channel lost on the CRM side is re-created by checkExists() at the next activation', async () => {
		const x = await activeTrigger({ modules: ['Leads'], events: ['create'], output: 'ids' });
		const lost = x.state().channelId as string;
		// the CRM forgets the channel (expired, removed by an admin…): deliveries stop
		expect((await crm.api('DELETE', `/crm/v2.1/actions/watch?channel_ids=${lost}`)).status).toBe(
			200,
		);
		await createLead('While lost');
		// the sandbox logs a change's deliveries when it commits: none for the lost channel
		await deliveriesSettled(crm.url, 0, { channelId: lost });
		expect(x.emitted).toHaveLength(0);

		// n8n start / re-activation: checkExists() finds no channel → create() subscribes a new one
		expect(await x.activate()).toBe(true);
		const fresh = x.state().channelId as string;
		expect(fresh).not.toBe(lost);
		const rows = (await crm.api('GET', `/crm/v2.1/actions/watch?channel_id=${fresh}`)).body.watch;
		expect(rows).toHaveLength(1);
		const id = await createLead('After recovery');
		await until(
			() => x.emitted.length,
			(n) => n === 1,
		);
		expect(x.emitted[0].map((i) => i.json.id)).toEqual([id]);
		// a second activation keeps (and renews) the recovered channel
		expect(await x.activate()).toBe(false);
		expect(x.state().channelId).toBe(fresh);
		console.log(
			`trigger recovery: lost channel ${lost} re-created as ${fresh}; records checked: 1`,
		);
		await x.deactivate();
	});
});
