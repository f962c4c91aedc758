// The CRM Trigger's catch-up (docs/crm-trigger.md "Catch-up") against a CRM that sends each
// delivery once (the sandbox's retry policy `none`): changes made while no n8n answered are read
// back by trigger() on its cron and at activation, and emitted once with the keys the deliveries
// would have carried, so a change a delivery brought is not run again, and a late copy of a caught-up
// change starts nothing. trigger() runs with n8n-core's TriggerContext; its emit runs the
// production execution in n8n's engine (the trigger's execute() first) and resolves n8n's done
// promise with it, as n8n does once the execution has run.
import { TriggerContext } from 'n8n-core';
import type { INode, INodeExecutionData, IRun } from 'n8n-workflow';

import { STALLED_MS } from '../../../nodes/CrmTrigger/catchUp';
import { RETRY } from '../../../nodes/shared/transport';
import type { CrmTrigger } from '../../../nodes/CrmTrigger/CrmTrigger.node';
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { startReceiver } from '../../harness/receiver';
import type { Receiver } from '../../harness/receiver';
import { advanceSandboxClock, clearSandboxFaults, setSandboxFault } from '../../harness/sandbox';
import { crmTrigger, routeDeliveries, runProduction, withIsolate } from '../../harness/trigger';
import { deliveriesSettled, sandboxDeliveries, waitFor } from '../../harness/wait';

let crm: CrmFixture;
let receiver: Receiver;
let trigger: CrmTrigger;
let counter = 0;

beforeAll(async () => {
	// the CRM at its least forgiving: one attempt per delivery
	crm = await crmFixture({
		sandbox: { demo: false, deliveryRetryDelaysMs: [0], deliveryTimeoutMs: 5000 },
	});
	receiver = await startReceiver();
	trigger = crm.nodeTypes['n8n-nodes-crm-service.crmTrigger'] as unknown as CrmTrigger;
	// the CRM's clock 5 minutes behind n8n's: every change is older than the catch-up's settle time
	await advanceSandboxClock(crm.url, -5 * 60_000);
});

afterAll(async () => {
	await advanceSandboxClock(crm.url, 5 * 60_000);
	await crm.close();
	await receiver.close();
});

afterEach(() => {
	receiver.respond = () => 200;
});

async function createLeads(...names: string[]): Promise<string[]> {
	const res = await crm.api('POST', '/crm/v2.1/Leads', {
		data: names.map((n) => ({ Last_Name: n })),
	});
	expect(res.status).toBe(201);
	return res.body.data.map((d: any) => d.details.id);
}

/** A published CRM Trigger with trigger() running: its crons are captured, its emits run executions. */
async function running(parameters: INode['parameters']) {
	counter++;
	const x = crmTrigger(crm, parameters, {
		origin: receiver.url,
		webhookId: `ca7c0000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
	});
	routeDeliveries(receiver, x);
	await x.activate();
	const crons: Array<{ expression: string; onTick: () => unknown }> = [];
	const caughtUp: IRun[] = [];
	// while `lost.on`, n8n loses track of what the trigger emits: never run, never reported
	const lost = { on: false, emits: [] as INodeExecutionData[][][] };
	const emit = (
		data: INodeExecutionData[][],
		_response?: unknown,
		done?: { resolve: (run: IRun) => void; reject: (error: Error) => void },
	) => {
		if (lost.on) {
			lost.emits.push(data);
			return;
		}
		void runProduction(crm, [x.node], data[0]).then((run) => {
			caughtUp.push(run);
			done?.resolve(run);
		}, done?.reject);
	};
	const ctx = new TriggerContext(
		x.t.workflow,
		x.node,
		x.t.additionalData,
		'trigger',
		'activate',
		emit as any,
		undefined,
		undefined,
		{
			registerCron: (cron: { expression: string }, onTick: () => unknown) =>
				crons.push({ expression: cron.expression, onTick }),
		} as any,
	);
	const response = await withIsolate(x.t.workflow, async () => await trigger.trigger.call(ctx));
	const catchUpCron = () => crons.find((c) => c !== crons[0]);
	return {
		x,
		crons,
		caughtUp,
		lost,
		/** the catch-up cron's tick, awaited (the one under way, e.g. the activation's, when there is one) */
		catchUp: async () => await (catchUpCron()?.onTick() as Promise<void> | undefined),
		emittedByCatchUp: () =>
			caughtUp.flatMap(
				(run) => run.data.resultData.runData[x.node.name]?.[0]?.data?.main?.[0] ?? [],
			),
		stop: async () => {
			await response.closeFunction?.();
			await x.delete();
		},
	};
}

const describeItem = (item: INodeExecutionData) =>
	`${item.json.operation}:${item.json.id}${item.json.caught_up ? ' (caught up)' : ''}`;

describe('CRM Trigger › catch-up', () => {
	test('changes made while n8n did not answer are caught up once; what a delivery brought is not run again; a late copy starts nothing', async () => {
		const [edited, removed] = await createLeads('Edited while down', 'Deleted while down');
		// edited in a later second than created (Modified_Time has whole seconds): an edit, not a create
		await advanceSandboxClock(crm.url, 1000);
		const t = await running({ modules: ['Leads'], events: ['all'], output: 'records' });
		await t.catchUp();
		// the channel's renewal cron, then the catch-up's: every 5 minutes by default
		expect(t.crons.map((c) => c.expression)).toEqual([expect.any(String), '0 */5 * * * *']);
		// started at the module's latest change: nothing before the activation is emitted
		expect(t.caughtUp).toHaveLength(0);
		const state = t.x.state();
		expect(Object.keys(state.catchUp).sort()).toEqual([
			'Leads|Created_Time',
			'Leads|Modified_Time',
			'Leads|deleted',
		]);

		// every n8n process down: the CRM's single attempt at each delivery fails
		receiver.respond = () => 503;
		const createdWhileDown = await createLeads('Created while down 1', 'Created while down 2');
		expect(
			(await crm.api('PUT', `/crm/v2.1/Leads/${edited}`, { data: [{ Company: 'Edited' }] })).status,
		).toBe(200);
		expect((await crm.api('DELETE', `/crm/v2.1/Leads/${removed}`)).status).toBe(200);
		const channelId = state.channelId as string;
		const lost = await deliveriesSettled(crm.url, 3, { channelId });
		expect(lost.map((d) => [d.outcome, d.attempts.length])).toEqual([
			['failed', 1],
			['failed', 1],
			['failed', 1],
		]);

		// n8n is back: a new change is delivered and runs
		routeDeliveries(receiver, t.x);
		const [delivered] = await createLeads('Delivered');
		await deliveriesSettled(crm.url, 4, { channelId });
		expect(t.x.emitted().flat().map(describeItem)).toEqual([`create:${delivered}`]);

		// the catch-up reads the five changes since its cursor; the delivered one stops at the trigger,
		// claimed before any record is fetched: only the three new creates and edits are fetched
		await crm.clearRequests();
		await t.catchUp();
		const fetchedIds = (await crm.requests())
			.filter((r) => r.method === 'GET' && r.url.startsWith('/crm/v2.1/Leads?'))
			.flatMap((r) => new URL(r.url, crm.url).searchParams.get('ids')!.split(','));
		expect(fetchedIds.sort()).toEqual([...createdWhileDown, edited].sort());
		expect(t.caughtUp).toHaveLength(1);
		const items = t.emittedByCatchUp();
		expect(items.map(describeItem).sort()).toEqual(
			[
				...createdWhileDown.map((id) => `create:${id} (caught up)`),
				`edit:${edited} (caught up)`,
				`delete:${removed} (caught up)`,
			].sort(),
		);
		const edit = items.find((i) => i.json.operation === 'edit')!;
		expect(edit.json).toMatchObject({ module: 'Leads', id: edited });
		expect((edit.json.record as any).Company).toBe('Edited');
		expect(items.every((i) => i.json._crmChange === undefined)).toBe(true);

		// nothing new: the next catch-up reads from its cursor and emits nothing
		await t.catchUp();
		expect(t.caughtUp).toHaveLength(1);

		// the CRM's lost delivery of a caught-up create arrives after all: its execution emits nothing
		const late = (await sandboxDeliveries(crm.url, channelId)).find((d) =>
			d.ids.includes(createdWhileDown[0]),
		)!;
		const before = t.x.executions.length;
		await t.x.deliver({ ...(late as any).body, server_time: Date.now() });
		expect(t.x.executions.length).toBe(before + 1);
		expect(t.x.emitted().at(-1)).toEqual([]);
		await t.stop();
	});

	test('a catch-up whose execution n8n never reports run is given up by a tick after 10 minutes and read again; closing does not wait for it', async () => {
		const t = await running({ modules: ['Leads'], events: ['create'] });
		await t.catchUp();
		const channelId = t.x.state().channelId as string;
		/** a create whose one delivery no n8n answered */
		const missed = async (name: string, deliveries: number) => {
			receiver.respond = () => 503;
			const [id] = await createLeads(name);
			await deliveriesSettled(crm.url, deliveries, { channelId });
			routeDeliveries(receiver, t.x);
			return id;
		};
		const first = await missed('Missed while main lost track', 1);
		const cursor = structuredClone(t.x.state().catchUp);

		t.lost.on = true;
		const stalled = t.catchUp();
		await waitFor(() => t.lost.emits.length === 1, { what: 'the catch-up emitted' });
		// a tick 10 minutes into the wait gives it up: the cursor stays where it was
		const spy = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + STALLED_MS);
		const givenUp = t.catchUp();
		spy.mockRestore();
		await Promise.all([givenUp, stalled]);
		expect(t.x.state().catchUp).toEqual(cursor);
		expect(t.caughtUp).toHaveLength(0);

		// the next tick reads the change again, and n8n runs it this time
		t.lost.on = false;
		await t.catchUp();
		expect(t.emittedByCatchUp().map(describeItem)).toEqual([`create:${first} (caught up)`]);
		expect(t.x.state().catchUp).not.toEqual(cursor);

		// closing while a catch-up waits on an execution n8n lost: closing ends that wait
		await missed('Missed again', 2);
		t.lost.on = true;
		const waiting = t.catchUp();
		await waitFor(() => t.lost.emits.length === 2, { what: 'the second catch-up emitted' });
		await t.stop();
		await waiting;
		expect(t.caughtUp).toHaveLength(1);
	});

	test('a catch-up execution that fails reading Full Records after its claim gives the claims back: the next catch-up emits the change once, and a late copy starts nothing', async () => {
		const t = await running({ modules: ['Leads'], events: ['create'], output: 'records' });
		await t.catchUp();
		const channelId = t.x.state().channelId as string;
		receiver.respond = () => 503;
		const [id] = await createLeads('Caught up, fetch failed');
		await deliveriesSettled(crm.url, 1, { channelId });
		routeDeliveries(receiver, t.x);
		const cursor = structuredClone(t.x.state().catchUp);

		// every read of the record fails (the shipped retries included): the execution fails after its claim
		await setSandboxFault(crm.url, {
			status: 500,
			count: RETRY.tries,
			path_includes: '/crm/v2.1/Leads',
		});
		try {
			await t.catchUp();
		} finally {
			await clearSandboxFaults(crm.url);
		}
		expect(t.caughtUp.map((run) => run.status)).toEqual(['error']);
		expect(t.emittedByCatchUp()).toEqual([]);
		// the cursor stays: the next catch-up reads the change again
		expect(t.x.state().catchUp).toEqual(cursor);

		await t.catchUp();
		expect(t.caughtUp.map((run) => run.status)).toEqual(['error', 'success']);
		const items = t.emittedByCatchUp();
		expect(items.map(describeItem)).toEqual([`create:${id} (caught up)`]);
		expect((items[0].json.record as any).Last_Name).toBe('Caught up, fetch failed');
		expect(t.x.state().catchUp).not.toEqual(cursor);

		// the CRM's lost delivery of it arrives after all: its execution emits nothing
		const late = (await sandboxDeliveries(crm.url, channelId)).find((d) => d.ids.includes(id))!;
		const before = t.x.executions.length;
		await t.x.deliver({ ...(late as any).body, server_time: Date.now() });
		expect(t.x.executions.length).toBe(before + 1);
		expect(t.x.emitted().at(-1)).toEqual([]);
		await t.stop();
	}, 90_000);

	test("the watched streams take turns: a backlog in one (1,200 deal creates) does not keep another stream's missed change out of the first execution", async () => {
		const t = await running({ modules: ['Deals', 'Leads'], events: ['create'] });
		await t.catchUp();
		const channelId = t.x.state().channelId as string;
		receiver.respond = () => 503;
		for (let n = 0; n < 12; n++) {
			const res = await crm.api('POST', '/crm/v2.1/Deals', {
				data: Array.from({ length: 100 }, (_, i) => ({
					Deal_Name: `Backlog ${n * 100 + i}`,
					Stage: 'Qualification',
					Closing_Date: '2030-03-01',
				})),
			});
			expect(res.status).toBe(201);
		}
		const [lead] = await createLeads('Missed behind a backlog');
		await deliveriesSettled(crm.url, 13, { channelId });
		await t.catchUp();
		// 1,201 changes: two executions of at most 1,000; the lead, read in the first round, is in the first
		expect(t.caughtUp).toHaveLength(2);
		const first = t.caughtUp[0].data.resultData.runData[t.x.node.name][0].data!.main[0]!;
		expect(first).toHaveLength(1000);
		expect(first.map(describeItem)).toContain(`create:${lead} (caught up)`);
		expect(t.emittedByCatchUp()).toHaveLength(1201);
		await t.stop();
	}, 60_000);

	test('with Catch Up on Missed Changes off, trigger() only renews: a change no delivery brought stays missed, and the CRM is not read', async () => {
		const t = await running({
			modules: ['Leads'],
			events: ['create'],
			options: { catchUp: false },
		});
		// the channel's renewal cron only
		expect(t.crons).toHaveLength(1);
		await crm.clearRequests();
		receiver.respond = () => 503;
		await createLeads('Missed for good');
		await deliveriesSettled(crm.url, 1, { channelId: t.x.state().channelId });
		const reads = (await crm.requests()).filter((r) => r.url.startsWith('/crm/v2.1/coql'));
		expect(reads).toHaveLength(0);
		expect(t.caughtUp).toHaveLength(0);
		await t.stop();
	});
});
