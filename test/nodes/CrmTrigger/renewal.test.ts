// Renewal without traffic, through the machinery n8n itself activates triggers with:
// ActiveWorkflowTriggers.addAllTriggers → TriggersAndPollers.runTriggerFunction → trigger() with a
// TriggerContext whose registerCron is the real ScheduledTaskManager (cron ticks every second).
// The sandbox's maximum channel lifetime is 5 s; the channel must stay alive for 30 s.
import { createRequire } from 'node:module';

import {
	ActiveWorkflowTriggers,
	InstanceSettings,
	ScheduledTaskManager,
	TriggerContext,
} from 'n8n-core';
import type {
	INode,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { startReceiver } from '../../harness/receiver';
import type { Receiver } from '../../harness/receiver';
import { crmTrigger, routeDeliveries, withIsolate } from '../../harness/trigger';
import { waitFor } from '../../harness/wait';

// n8n-core's own copy of the DI container (the package nests its @n8n/di)
const { Container } = createRequire(require.resolve('n8n-core'))(
	'@n8n/di',
) as typeof import('@n8n/di');

const MAX_EXPIRY_SEC = 5;
const QUIET_MS = 30_000;

let crm: CrmFixture;
let receiver: Receiver;

beforeAll(async () => {
	crm = await crmFixture({
		sandbox: {
			demo: false,
			channelMaxExpirySec: MAX_EXPIRY_SEC,
			deliveryRetryDelaysMs: [0, 50, 100],
		},
	});
	receiver = await startReceiver();
	// crons only run on the leader main (ScheduledTaskManager.register)
	Container.get(InstanceSettings).markAsLeader();
});

afterAll(async () => {
	await crm.close();
	await receiver.close();
});

function harness(webhookId: string) {
	return crmTrigger(
		crm,
		{ modules: ['Leads'], events: ['create'] },
		{ origin: receiver.url, webhookId },
	);
}

async function channel(channelId: string): Promise<any | undefined> {
	const res = await crm.api('GET', `/crm/v2.1/actions/watch?channel_id=${channelId}`);
	return res.status === 200 ? res.body.watch[0] : undefined;
}

const renewals = async () =>
	(await crm.requests()).filter(
		(r) => r.method === 'PATCH' && r.url === '/crm/v2.1/actions/watch' && r.status === 200,
	).length;

test(`with a ${MAX_EXPIRY_SEC}-second maximum expiry, the activated trigger keeps its channel alive for ${QUIET_MS / 1000} s without traffic`, async () => {
	const active = harness('5e1f0000-0000-4000-8000-000000000001');
	// a second channel with no trigger() running: the control that shows channels do lapse here
	const control = harness('5e1f0000-0000-4000-8000-000000000002');

	// activation, as n8n's ActiveWorkflowManager does it: webhooks (checkExists → create) and triggers
	expect(await active.checkExists()).toBe(false);
	await active.create();
	await control.create();
	const { channelId, token } = active.state();
	// the CRM refused a 1-day expiry, so the channel took the longest it allows
	expect(active.state().lifetimeMs).toBeLessThanOrEqual(MAX_EXPIRY_SEC * 1000);

	const workflow: Workflow = active.t.workflow;
	const activeTriggers = Container.get(ActiveWorkflowTriggers);
	const getTriggerFunctions = (
		wf: Workflow,
		node: INode,
		additionalData: IWorkflowExecuteAdditionalData,
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
	) =>
		new TriggerContext(
			wf,
			node,
			additionalData,
			mode,
			activation,
			() => {},
			() => {},
			() => {},
		);
	await withIsolate(
		workflow,
		async () =>
			await activeTriggers.addAllTriggers(
				workflow.id,
				workflow,
				active.t.additionalData,
				'trigger',
				'activate',
				getTriggerFunctions as any,
				(() => {
					throw new Error('no pollers here');
				}) as any,
			),
	);
	const group = { type: 'workflow', id: workflow.id };
	// the renewal tick is registered with n8n's scheduler, against this node
	expect(Container.get(ScheduledTaskManager).hasTarget(group as any, active.node.id)).toBe(true);
	expect(activeTriggers.isActive(workflow.id)).toBe(true);

	const before = await renewals();
	const started = Date.now();
	let checks = 0;
	while (Date.now() - started < QUIET_MS) {
		await new Promise((r) => setTimeout(r, 2500));
		const row = await channel(channelId);
		expect(row).toBeDefined();
		expect(Date.parse(row.channel_expiry)).toBeGreaterThan(Date.now());
		expect(row.token).toBe(token);
		checks++;
	}
	expect(checks).toBeGreaterThanOrEqual(11);
	// renewed by PATCH channel_expiry, never re-created: roughly every third of the 5-s lifetime
	expect((await renewals()) - before).toBeGreaterThanOrEqual(QUIET_MS / (MAX_EXPIRY_SEC * 1000));
	expect(active.state().channelId).toBe(channelId);
	// the control channel lapsed long ago
	expect(await channel(control.state().channelId)).toBeUndefined();

	// and it still delivers after 30 quiet seconds
	routeDeliveries(receiver, active);
	const runs = active.executions;
	const created = await crm.api('POST', '/crm/v2.1/Leads', {
		data: [{ Last_Name: 'After the quiet' }],
	});
	const id = created.body.data[0].details.id;
	await waitFor(() => runs.length, { ok: (n) => n > 0 });
	expect(runs).toHaveLength(1);
	expect(active.emitted()[0].map((i) => i.json.id)).toEqual([id]);

	// deactivation: n8n removes the triggers (cron deregistered, closeFunction) and calls delete().
	// Removed right after a renewal completed: the next one is not due for a third of the lifetime,
	// so no renewal is in flight, and with the cron deregistered none can start afterwards.
	const renewed = await renewals();
	const afterRemoval = await waitFor(renewals, {
		ok: (n) => n > renewed,
		timeout: MAX_EXPIRY_SEC * 1000,
	});
	await activeTriggers.remove(workflow.id);
	expect(Container.get(ScheduledTaskManager).hasTarget(group as any, active.node.id)).toBe(false);
	await active.delete();
	await control.delete();
	expect(await renewals()).toBe(afterRemoval);
	expect((await crm.api('GET', '/crm/v2.1/actions/watch')).status).toBe(204);
}, 90_000);
