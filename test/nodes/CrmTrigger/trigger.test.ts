// CRM Trigger in n8n's engine against the sandbox: lifecycle (checkExists / create / delete) through
// HookContext, real deliveries from the sandbox to a local receiver that hands each POST to
// webhook() (WebhookContext) and runs one workflow execution per accepted delivery (production
// executions in mode 'webhook', with the trigger's execute() as first node, as n8n runs them).
import { TriggerContext } from 'n8n-core';
import type { INode } from 'n8n-workflow';

import type { CrmTrigger } from '../../../nodes/CrmTrigger/CrmTrigger.node';
import { renewalCron } from '../../../nodes/CrmTrigger/channel';
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { outputOf } from '../../harness/n8n';
import { startReceiver } from '../../harness/receiver';
import type { Receiver } from '../../harness/receiver';
import { crmTrigger, routeDeliveries, withIsolate } from '../../harness/trigger';
import { deliveriesSettled, waitFor } from '../../harness/wait';

let crm: CrmFixture;
let receiver: Receiver;
let trigger: CrmTrigger;
let hookCounter = 0;

beforeAll(async () => {
	crm = await crmFixture({
		sandbox: { demo: false, deliveryRetryDelaysMs: [0, 50, 100], deliveryTimeoutMs: 5000 },
	});
	receiver = await startReceiver();
	trigger = crm.nodeTypes['n8n-nodes-crm-service.crmTrigger'] as unknown as CrmTrigger;
});

afterAll(async () => {
	await crm.close();
	await receiver.close();
});

/** A trigger node wired to the receiver: the channel's notify_url is `<receiver>/webhook/<webhookId>/webhook`. */
function activeTrigger(parameters: INode['parameters'], mode: 'trigger' | 'manual' = 'trigger') {
	hookCounter++;
	const x = crmTrigger(crm, parameters, {
		origin: receiver.url,
		mode,
		webhookId: `0a1b2c3d-0000-4000-8000-${String(hookCounter).padStart(12, '0')}`,
	});
	return { ...x, url: () => x.url };
}

type Active = ReturnType<typeof activeTrigger>;

/** The receiver passes each delivery to the trigger whose webhook URL it was sent to. */
function route(...triggers: Active[]) {
	routeDeliveries(receiver, ...triggers);
}

async function watchRows(query = ''): Promise<any[]> {
	const res = await crm.api('GET', `/crm/v2.1/actions/watch${query}`);
	if (res.status === 204) return [];
	expect(res.status).toBe(200);
	return res.body.watch;
}

async function createLeads(...names: string[]): Promise<string[]> {
	const res = await crm.api('POST', '/crm/v2.1/Leads', {
		data: names.map((n) => ({ Last_Name: n, Company: `${n} Co` })),
	});
	expect(res.status).toBe(201);
	return res.body.data.map((d: any) => d.details.id);
}

async function until<T>(
	probe: () => T | Promise<T>,
	ok: (v: T) => boolean,
	timeoutMs = 5000,
): Promise<T> {
	return await waitFor(probe, { ok, timeout: timeoutMs, interval: 20 });
}

afterEach(async () => {
	receiver.respond = () => 200;
	receiver.received.length = 0;
	// no test leaves a channel behind
	const rows = await watchRows();
	if (rows.length > 0)
		await crm.api(
			'DELETE',
			`/crm/v2.1/actions/watch?channel_ids=${[...new Set(rows.map((r) => r.channel_id))].join(',')}`,
		);
});

describe('CRM Trigger › lifecycle and deliveries (engine → sandbox → receiver → webhook())', () => {
	test('activate → create a record → exactly that record is emitted (IDs only) → deactivate → the channel is gone', async () => {
		const x = activeTrigger({ modules: ['Leads'], events: ['create'], output: 'ids' });
		route(x);
		expect(await x.checkExists()).toBe(false);
		expect(await x.create()).toBe(true);

		// random channel id and token, the webhook URL, the longest allowed expiry, all in static data
		const state = x.state();
		expect(state.channelId).toMatch(/^[1-9]\d{17}$/);
		expect(state.token).toMatch(/^[0-9a-f]{48}$/);
		expect(state.notifyUrl).toBe(x.url());
		expect(state.expiresAt).toBeGreaterThan(Date.now() + 86_400_000 - 120_000);
		const [row] = await watchRows(`?channel_id=${state.channelId}`);
		expect(row).toMatchObject({
			events: ['Leads.create'],
			notify_url: x.url(),
			token: state.token,
			return_affected_field_values: false,
		});

		const [id] = await createLeads('Trigger');
		await until(
			() => x.executions.length,
			(n) => n === 1,
		);
		const [items] = x.emitted();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			module: 'Leads',
			operation: 'create',
			id,
			server_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
		});
		expect(Math.abs(Date.parse(items[0].json.server_time as string) - Date.now())).toBeLessThan(
			10_000,
		);

		// an edit is not watched: no delivery, no execution
		await crm.api('PUT', `/crm/v2.1/Leads/${id}`, { data: [{ Company: 'Edited' }] });
		// the sandbox logs a change's deliveries when it commits: still only the create's, and it is final
		await deliveriesSettled(crm.url, 1, { channelId: state.channelId });
		expect(x.executions).toHaveLength(1);

		const { channelId } = state;
		expect(await x.delete()).toBe(true);
		expect(await watchRows(`?channel_id=${channelId}`)).toEqual([]);
		expect(await watchRows()).toEqual([]);
		expect(x.state()).toEqual({});
	});

	test('full records: one execution per delivery, one item per record, affected fields and values; deletes keep id, module, operation', async () => {
		const x = activeTrigger({
			modules: ['Leads', 'Contacts'],
			events: ['all'],
			output: 'records',
			options: { includeAffected: true },
		});
		route(x);
		await x.activate();
		const [row] = await watchRows(`?channel_id=${x.state().channelId}`);
		expect(row.return_affected_field_values).toBe(true);
		expect((await watchRows(`?channel_id=${x.state().channelId}`)).map((r) => r.events)).toEqual([
			['Leads.all'],
			['Contacts.all'],
		]);

		const ids = await createLeads('Full One', 'Full Two');
		await until(
			() => x.executions.length,
			(n) => n === 1,
		);
		const created = x.emitted()[0];
		expect(created.map((i) => i.json.id)).toEqual(ids);
		expect(created[0].json).toMatchObject({
			module: 'Leads',
			operation: 'create',
			id: ids[0],
			affected_fields: [],
			affected_values: expect.objectContaining({ Last_Name: 'Full One' }),
			record: expect.objectContaining({
				id: ids[0],
				Last_Name: 'Full One',
				Company: 'Full One Co',
			}),
		});

		await crm.api('PUT', '/crm/v2.1/Leads', { data: [{ id: ids[1], Company: 'Renamed Co' }] });
		await until(
			() => x.executions.length,
			(n) => n === 2,
		);
		const [edited] = x.emitted()[1];
		expect(edited.json).toMatchObject({
			operation: 'edit',
			id: ids[1],
			affected_fields: ['Company'],
			affected_values: { Company: 'Renamed Co' },
			record: expect.objectContaining({ Company: 'Renamed Co', Last_Name: 'Full Two' }),
		});

		const contact = await crm.api('POST', '/crm/v2.1/Contacts', {
			data: [{ Last_Name: 'Watched Contact' }],
		});
		await until(
			() => x.executions.length,
			(n) => n === 3,
		);
		expect(x.emitted()[2][0].json).toMatchObject({
			module: 'Contacts',
			id: contact.body.data[0].details.id,
			record: expect.objectContaining({ Last_Name: 'Watched Contact' }),
		});

		await crm.api('DELETE', `/crm/v2.1/Leads?ids=${ids.join(',')}`);
		await until(
			() => x.executions.length,
			(n) => n === 4,
		);
		const deleted = x.emitted()[3];
		expect(deleted.map((i) => i.json)).toEqual(
			ids.map((id) => ({
				module: 'Leads',
				operation: 'delete',
				id,
				server_time: expect.any(String),
				affected_fields: [],
			})),
		);
		await x.delete();
	});

	test('full records are fetched with at most 100 ids per GetRecords request', async () => {
		const x = activeTrigger({ modules: ['Leads'], events: ['edit'], output: 'records' });
		await x.activate();
		const names = Array.from({ length: 150 }, (_, i) => `Bulk ${i}`);
		const ids = [
			...(await createLeads(...names.slice(0, 100))),
			...(await createLeads(...names.slice(100))),
		];
		await crm.clearRequests();
		const state = x.state();
		// one genuine delivery listing 150 ids (as a mass update produces)
		const { result } = await x.deliver({
			server_time: Date.now(),
			query_params: {},
			module: 'Leads',
			resource_uri: `${crm.url}/crm/v2.1/Leads`,
			ids,
			affected_fields: ids.map((id) => ({ [id]: ['Company'] })),
			operation: 'update',
			channel_id: state.channelId,
			token: state.token,
		});
		// webhook() starts the execution from the body alone; execute() fetches the records
		expect(result.workflowData![0].every((i) => i.json.record === undefined)).toBe(true);
		const items = x.emitted()[0];
		expect(items).toHaveLength(150);
		expect(
			items.every((i, n) => i.json.id === ids[n] && (i.json.record as any)?.Last_Name === names[n]),
		).toBe(true);
		const gets = (await crm.requests()).filter(
			(r) => r.method === 'GET' && r.url.startsWith('/crm/v2.1/Leads?'),
		);
		const sizes = gets.map(
			(r) => new URL(r.url, crm.url).searchParams.get('ids')!.split(',').length,
		);
		expect(sizes).toEqual([100, 50]);
		await x.delete();
	});

	test('a forged delivery (wrong token or channel) is answered 401 and starts no execution', async () => {
		const x = activeTrigger({ modules: ['Leads'], events: ['create'] });
		route(x);
		await x.activate();
		const { channelId, token } = x.state();
		const body = {
			server_time: Date.now(),
			module: 'Leads',
			ids: ['4876876000000611001'],
			operation: 'insert',
			affected_fields: [],
			query_params: {},
		};

		// through the network, exactly as a forger would send it
		const forged = await fetch(x.url(), {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ ...body, channel_id: channelId, token: 'f'.repeat(48) }),
		});
		expect(forged.status).toBe(401);
		expect((await x.deliver({ ...body, channel_id: '123456789', token })).status).toBe(401);
		expect((await x.deliver({ ...body, channel_id: channelId })).status).toBe(401);
		expect((await x.deliver({ ...body, channel_id: channelId, token: `${token}x` })).status).toBe(
			401,
		);
		expect(x.executions).toHaveLength(0);
		expect(
			x.webhookResults.every((r) => r.noWebhookResponse === true && r.workflowData === undefined),
		).toBe(true);

		// the genuine one passes
		expect((await x.deliver({ ...body, channel_id: channelId, token })).status).toBe(200);
		expect(x.executions).toHaveLength(1);
		await x.delete();
	});

	test('checkExists renews a live channel and re-subscribes when the channel changed, vanished or the parameters changed', async () => {
		const x = activeTrigger({ modules: ['Deals'], events: ['create', 'edit'] });
		await x.activate();
		const first = x.state().channelId;
		await crm.clearRequests();
		expect(await x.checkExists()).toBe(true);
		expect(
			(await crm.requests()).some(
				(r) => r.method === 'PATCH' && r.url === '/crm/v2.1/actions/watch',
			),
		).toBe(true);
		expect(x.state().channelId).toBe(first);

		// someone removed an event remotely: the channel no longer matches → disabled and re-created
		await crm.api('PATCH', '/crm/v2.1/actions/watch', {
			watch: [{ channel_id: first, events: ['Deals.edit'], _delete_events: true }],
		});
		expect(await x.checkExists()).toBe(false);
		expect(await watchRows()).toEqual([]);
		await x.create();
		const second = x.state().channelId;
		expect(second).not.toBe(first);

		// the channel vanished (expired, deleted remotely)
		await crm.api('DELETE', `/crm/v2.1/actions/watch?channel_ids=${second}`);
		expect(await x.checkExists()).toBe(false);
		await x.create();

		// the user changed the events: re-activation replaces the channel
		x.node.parameters.events = ['delete'];
		expect(await x.checkExists()).toBe(false);
		await x.create();
		const rows = await watchRows();
		expect(rows.map((r) => r.events)).toEqual([['Deals.delete']]);
		await x.delete();
		expect(await watchRows()).toEqual([]);
	});

	test('no orphan subscriptions after activate/deactivate cycles, lost static data and test mode', async () => {
		const prod = activeTrigger({ modules: ['Leads'], events: ['all'] });
		route(prod);
		for (let i = 0; i < 3; i++) {
			await prod.activate();
			expect(await watchRows()).toHaveLength(1);
			await prod.delete();
			expect(await watchRows()).toEqual([]);
		}

		// static data lost after create(): the next activation removes the channel left at this URL
		await prod.activate();
		for (const key of Object.keys(prod.state())) delete prod.state()[key];
		expect(await prod.checkExists()).toBe(false);
		expect(await watchRows()).toEqual([]);
		await prod.create();

		// "Listen for test event": its own channel on the test URL with empty static data, deleted after use
		const test = activeTrigger({ modules: ['Leads'], events: ['all'] }, 'manual');
		route(prod, test);
		await test.activate();
		const rows = await watchRows();
		expect(rows.map((r) => r.notify_url).sort()).toEqual([prod.url(), test.url()].sort());
		expect(test.url()).toContain('/webhook-test/');
		const [id] = await createLeads('Both see it');
		await until(
			() => prod.executions.length + test.executions.length,
			(n) => n === 2,
		);
		expect(test.emitted()[0][0].json).toMatchObject({ id, operation: 'create' });
		await test.delete();
		expect((await watchRows()).map((r) => r.notify_url)).toEqual([prod.url()]);
		await prod.delete();
		expect(await watchRows()).toEqual([]);
	});

	test('execute() passes a delivery through in manual runs (test mode, "Execute step")', async () => {
		const x = activeTrigger({ modules: ['Leads'], events: ['create'] });
		const items = [
			{ json: { module: 'Leads', operation: 'create', id: '1' } },
			{ json: { module: 'Leads', operation: 'create', id: '2' } },
		];
		expect(outputOf(await crm.run([x.node], items), x.node.name).map((i) => i.json)).toEqual(
			items.map((i) => i.json),
		);
	});

	test("renewal runs on trigger()'s cron only, paced by the channel lifetime; a delivery never renews; a lost channel is re-created under the same id and token", async () => {
		const x = activeTrigger({ modules: ['Leads'], events: ['create'] });
		route(x);
		await x.activate();
		const state = x.state();
		const { channelId, token } = state;
		const patches = async () =>
			(await crm.requests()).filter(
				(r) => r.method === 'PATCH' && r.url === '/crm/v2.1/actions/watch',
			).length;

		// two thirds of the lifetime gone: a delivery still does not renew (only main's cron does)
		state.expiresAt = Date.now() + 60_000;
		const before = await patches();
		await createLeads('No renewal on delivery');
		await until(
			() => x.executions.length,
			(n) => n === 1,
		);
		expect(await patches()).toBe(before);
		expect(state.expiresAt).toBeLessThan(Date.now() + 61_000);

		// trigger(): the tick period is a sixth of the lifetime (1-day channel: every 3 hours)
		const crons: string[] = [];
		let tick: (() => void) | undefined;
		const ctx = new TriggerContext(
			x.t.workflow,
			x.node,
			x.t.additionalData,
			'trigger',
			'activate',
			undefined,
			undefined,
			undefined,
			{
				registerCron: (cron: { expression: string }, onTick: () => void) => {
					crons.push(cron.expression);
					tick ??= onTick;
				},
			} as any,
		);
		const response = await withIsolate(x.t.workflow, async () => await trigger.trigger.call(ctx));
		// and the catch-up's, every 5 minutes by default (it also reads once at activation)
		expect(crons).toEqual(['0 0 */3 * * *', '0 */5 * * * *']);
		tick!();
		await until(
			() => state.expiresAt,
			(e) => e > Date.now() + 86_000_000,
		);
		expect(await patches()).toBe(before + 1);
		// not due: a tick makes no request (the node's tick checks renewalDue before its first await, so
		// the decision is taken inside tick!(); a request would show in the sandbox's request log)
		tick!();
		expect(await patches()).toBe(before + 1);

		// the CRM lost the channel: the next due tick re-creates it under the same id and token
		await crm.api('DELETE', `/crm/v2.1/actions/watch?channel_ids=${channelId}`);
		state.expiresAt = Date.now() + 1000;
		tick!();
		const rows = await until(
			() => watchRows(),
			(r) => r.length === 1,
		);
		expect(rows[0]).toMatchObject({ channel_id: channelId, token, notify_url: x.url() });
		expect(state.channelId).toBe(channelId);
		await response.closeFunction!();

		// without n8n's scheduling helper trigger() registers nothing and activation still works
		const bare = new TriggerContext(
			x.t.workflow,
			x.node,
			x.t.additionalData,
			'trigger',
			'activate',
			undefined,
			undefined,
			undefined,
			{} as any,
		);
		expect(await trigger.trigger.call(bare)).toEqual({});
		await x.delete();
	});

	test('renewal cron for other lifetimes: 30-s channels every 5 s, 1-hour channels every 10 min, 1-day channels every 3 hours', () => {
		expect(renewalCron(30_000)).toBe('*/5 * * * * *');
		expect(renewalCron(5_000)).toBe('*/1 * * * * *');
		expect(renewalCron(3_600_000)).toBe('0 */10 * * * *');
		expect(renewalCron(86_340_000)).toBe('0 0 */3 * * *');
	});
});
