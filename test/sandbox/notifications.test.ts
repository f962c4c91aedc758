// Contract tests of the sandbox watch channels and deliveries (docs/protocol.md §5.14, §9, §3.8, §12) over HTTP.
import type { Receiver, ReceivedRequest } from '../harness/receiver.ts';
import { startReceiver } from '../harness/receiver.ts';
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken, startTestSandbox } from '../harness/sandbox.ts';
import { waitFor } from '../harness/wait.ts';

const sb = useContractFixture({
	scope: 'CRM.modules.ALL,CRM.settings.ALL,CRM.notifications.ALL,CRM.mass_update.ALL',
	sandbox: { demo: false, deliveryRetryDelaysMs: [0, 50, 100], deliveryTimeoutMs: 1000 },
});
const { call } = sb;
let receiver: Receiver;
let nextChannel = 1000000068001;

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

beforeAll(async () => {
	receiver = await startReceiver();
});

afterAll(async () => {
	await receiver.close();
});

beforeEach(async () => {
	receiver.respond = () => 200;
	receiver.received.length = 0;
	await api(`${sb.url}/__sandbox/deliveries`, undefined, { method: 'DELETE' });
	// every test starts without channels
	const list = await call('GET', '/crm/v2.1/actions/watch');
	if (list.status === 200) {
		const ids = [...new Set(list.body.watch.map((w: any) => w.channel_id))];
		await call('DELETE', `/crm/v2.1/actions/watch?channel_ids=${ids.join(',')}`);
	}
});

const watch = async (method: string, items: unknown[], v = 'v2.1') =>
	await call(method, `/crm/${v}/actions/watch`, { body: { watch: items } });

const channelId = () => String(nextChannel++);

function item(extra: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		channel_id: channelId(),
		events: ['Leads.all'],
		notify_url: `${receiver.url}/hook?wf=42`,
		token: 'tok-123',
		...extra,
	};
}

async function deliveries(query = ''): Promise<any[]> {
	const res = await api(`${sb.url}/__sandbox/deliveries${query}`);
	expect(res.status).toBe(200);
	return res.body.deliveries;
}

/** Waits until every delivery logged so far has its final outcome. */
async function settled(expected: number, timeoutMs = 3000): Promise<any[]> {
	return await waitFor(deliveries, {
		timeout: timeoutMs,
		what: 'deliveries settled',
		ok: (list) => list.length >= expected && list.every((d) => d.outcome !== 'pending'),
	});
}

async function createLeads(...names: string[]): Promise<string[]> {
	const res = await call('POST', '/crm/v2.1/Leads', {
		body: { data: names.map((n) => ({ Last_Name: n })) },
	});
	expect(res.status).toBe(201);
	return res.body.data.map((d: any) => d.details.id);
}

const bodies = (list: ReceivedRequest[]) => list.map((r) => r.body);

describe('EnableNotifications', () => {
	test('subscribes a channel: 200, one details.events entry per module (§9.2), module names canonicalised', async () => {
		const id = channelId();
		const res = await watch('POST', [
			{
				channel_id: id,
				events: ['leads.create', 'Leads.edit', 'DEALS.all'],
				notify_url: 'https://receiver.example/webhook/7f3c?wf=42',
				token: 'c2b1f0e6'.repeat(4),
			},
		]);
		expect(res.status).toBe(200);
		expect(res.body.watch).toHaveLength(1);
		const [result] = res.body.watch;
		expect(result).toMatchObject({
			code: 'SUCCESS',
			status: 'success',
			message: 'Successfully subscribed for actions-watch of the given module',
		});
		expect(result.details.events.map((e: any) => e.resource_name)).toEqual(['Leads', 'Deals']);
		const leads = result.details.events[0];
		expect(leads).toEqual({
			channel_expiry: expect.stringMatching(DATETIME),
			resource_uri: `${sb.url}/crm/v2.1/Leads`,
			resource_id: expect.stringMatching(/^\d{19}$/),
			resource_name: 'Leads',
			channel_id: id,
		});
		// default expiry: now + 1 hour
		const expiry = Date.parse(leads.channel_expiry);
		expect(expiry).toBeGreaterThan(Date.now() + 3590_000);
		expect(expiry).toBeLessThanOrEqual(Date.now() + 3600_000);
		const list = await call('GET', `/crm/v2.1/actions/watch?channel_id=${id}`);
		expect(list.body.watch.map((w: any) => w.events)).toEqual([
			['Leads.create', 'Leads.edit'],
			['Deals.all'],
		]);
	});

	test('per-item errors in input order with the §9.1/§6 codes; a mixed result answers 200, all failed 400', async () => {
		const dup = item();
		expect((await watch('POST', [dup])).status).toBe(200);
		const res = await watch('POST', [
			item(),
			item({ token: 'x'.repeat(51) }),
			item({
				channel_expiry: new Date(Date.now() + 2 * 86400_000).toISOString().replace(/\.\d+Z$/, 'Z'),
			}),
			item({ channel_expiry: '2020-01-01T00:00:00+00:00' }),
			item({ channel_expiry: 'tomorrow' }),
			item({ events: ['Widgets.create'] }),
			item({ events: ['Notes.create'] }),
			item({ events: ['Leads.merge'] }),
			item({ events: [] }),
			item({ notify_url: undefined }),
			item({ notify_url: 'ftp://x.example/' }),
			item({ channel_id: 'abc' }),
			{ ...dup },
			item({ return_affected_field_values: 'yes' }),
			{ channel_id: 4242424242, events: ['Contacts.delete'], notify_url: `${receiver.url}/n` },
		]);
		expect(res.status).toBe(200);
		const codes = res.body.watch.map((r: any) => [r.code, r.details.api_name]);
		expect(codes).toEqual([
			['SUCCESS', undefined],
			['INVALID_DATA', 'token'],
			['INVALID_DATA', 'channel_expiry'],
			['INVALID_DATA', 'channel_expiry'],
			['INVALID_DATA', 'channel_expiry'],
			['INVALID_MODULE', 'events'],
			['INVALID_MODULE', 'events'],
			['INVALID_DATA', 'events'],
			['MANDATORY_NOT_FOUND', 'events'],
			['MANDATORY_NOT_FOUND', 'notify_url'],
			['INVALID_DATA', 'notify_url'],
			['INVALID_DATA', 'channel_id'],
			['DUPLICATE_DATA', 'channel_id'],
			['INVALID_DATA', 'return_affected_field_values'],
			['SUCCESS', undefined],
		]);
		expect(res.body.watch[1].details).toMatchObject({
			maximum_length: 50,
			json_path: '$.watch[1].token',
		});
		expect(res.body.watch[4].details.expected_data_type).toBe('datetime');
		expect(
			res.body.watch.every((r: any) => r.status === (r.code === 'SUCCESS' ? 'success' : 'error')),
		).toBe(true);
		// a numeric channel id is accepted and echoed as a string
		expect(res.body.watch[14].details.events[0].channel_id).toBe('4242424242');

		const allFailed = await watch('POST', [item({ token: 'y'.repeat(60) })]);
		expect(allFailed.status).toBe(400);
		expect(allFailed.body.watch[0].code).toBe('INVALID_DATA');
	});

	test('request-level errors: missing or empty `watch`, more than 100 items, wrong method, missing scope', async () => {
		const missing = await call('POST', '/crm/v2.1/actions/watch', { body: { channels: [] } });
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'watch' },
		});
		expect((await watch('POST', [])).body.code).toBe('MANDATORY_NOT_FOUND');
		const tooMany = await watch(
			'POST',
			Array.from({ length: 101 }, () => item()),
		);
		expect(tooMany.status).toBe(400);
		expect(tooMany.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 100, api_name: 'watch' },
		});

		const readOnly = (await grantToken(sb.url, { scope: 'CRM.modules.ALL,CRM.notifications.READ' }))
			.access_token;
		expect((await call('GET', '/crm/v2.1/actions/watch', {}, readOnly)).status).toBe(204);
		const refused = await call(
			'POST',
			'/crm/v2.1/actions/watch',
			{ body: { watch: [item()] } },
			readOnly,
		);
		expect(refused.status).toBe(401);
		expect(refused.body.code).toBe('OAUTH_SCOPE_MISMATCH');
		const none = (await grantToken(sb.url, { scope: 'CRM.modules.ALL' })).access_token;
		expect((await call('GET', '/crm/v2.1/actions/watch', {}, none)).body.code).toBe(
			'OAUTH_SCOPE_MISMATCH',
		);
	});
});

describe('GetNotificationDetails', () => {
	test('one item per channel and module, filters, paging, 204 when none; v2 echoes its own resource_uri', async () => {
		expect((await call('GET', '/crm/v2.1/actions/watch')).status).toBe(204);
		const a = item({
			events: ['Leads.create', 'Contacts.all'],
			return_affected_field_values: true,
			notify_on_related_action: false,
			fields: { Leads: ['Email'] },
		});
		const b = item({ events: ['Deals.edit'], token: undefined });
		await watch('POST', [a]);
		await watch('POST', [b], 'v2');
		const all = await call('GET', '/crm/v2.1/actions/watch');
		expect(all.status).toBe(200);
		expect(all.body.info).toEqual({ per_page: 200, count: 3, page: 1, more_records: false });
		expect(all.body.watch[0]).toEqual({
			channel_id: a.channel_id,
			events: ['Leads.create'],
			notify_url: a.notify_url,
			token: 'tok-123',
			channel_expiry: expect.stringMatching(DATETIME),
			notify_on_related_action: false,
			return_affected_field_values: true,
			fields: { Leads: ['Email'] },
			resource_uri: `${sb.url}/crm/v2.1/Leads`,
			resource_id: expect.stringMatching(/^\d{19}$/),
			resource_name: 'Leads',
		});
		expect(all.body.watch[2]).toMatchObject({
			channel_id: b.channel_id,
			resource_uri: `${sb.url}/crm/v2/Deals`,
			resource_name: 'Deals',
		});
		expect(all.body.watch[2]).not.toHaveProperty('token');

		const byModule = await call('GET', '/crm/v2.1/actions/watch?module=contacts');
		expect(byModule.body.watch.map((w: any) => [w.channel_id, w.events])).toEqual([
			[a.channel_id, ['Contacts.all']],
		]);
		const byChannel = await call('GET', `/crm/v2.1/actions/watch?channel_id=${b.channel_id}`);
		expect(byChannel.body.watch).toHaveLength(1);
		expect((await call('GET', '/crm/v2.1/actions/watch?channel_id=999')).status).toBe(204);

		const page1 = await call('GET', '/crm/v2.1/actions/watch?per_page=2');
		expect(page1.body.info).toEqual({ per_page: 2, count: 2, page: 1, more_records: true });
		const page2 = await call('GET', '/crm/v2.1/actions/watch?per_page=2&page=2');
		expect(page2.body.info).toEqual({ per_page: 2, count: 1, page: 2, more_records: false });

		expect((await call('GET', '/crm/v2.1/actions/watch?module=Widgets')).body.code).toBe(
			'INVALID_MODULE',
		);
		expect((await call('GET', '/crm/v2.1/actions/watch?per_page=201')).body.code).toBe(
			'INVALID_DATA',
		);
	});
});

describe('UpdateNotifications (PUT) and UpdateNotification (PATCH)', () => {
	test('PUT replaces every detail; keys left out return to their defaults; unknown channel NOT_SUBSCRIBED', async () => {
		const a = item({
			return_affected_field_values: true,
			notify_on_related_action: false,
			channel_expiry: new Date(Date.now() + 7200_000).toISOString().replace(/\.\d+Z$/, 'Z'),
		});
		await watch('POST', [a]);
		const res = await watch('PUT', [
			{ channel_id: a.channel_id, events: ['Deals.create'], notify_url: `${receiver.url}/other` },
			{ channel_id: '77', events: ['Deals.create'], notify_url: `${receiver.url}/x` },
		]);
		expect(res.status).toBe(200);
		expect(res.body.watch[0]).toMatchObject({
			code: 'SUCCESS',
			message: 'Successfully updated the subscribe details',
		});
		expect(res.body.watch[0].details.events.map((e: any) => e.resource_name)).toEqual(['Deals']);
		expect(res.body.watch[1]).toMatchObject({
			code: 'NOT_SUBSCRIBED',
			status: 'error',
			details: { api_name: 'channel_id' },
		});
		const [row] = (await call('GET', `/crm/v2.1/actions/watch?channel_id=${a.channel_id}`)).body
			.watch;
		expect(row).toMatchObject({
			events: ['Deals.create'],
			notify_url: `${receiver.url}/other`,
			notify_on_related_action: true,
			return_affected_field_values: false,
		});
		expect(row).not.toHaveProperty('token');
		expect(Date.parse(row.channel_expiry)).toBeLessThanOrEqual(Date.now() + 3600_000);
		const missing = await watch('PUT', [{ channel_id: a.channel_id, events: ['Deals.create'] }]);
		expect(missing.status).toBe(400);
		expect(missing.body.watch[0]).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'notify_url' },
		});
	});

	test('PATCH merges: events are added, only the given keys change, channel_expiry renews', async () => {
		const a = item({ events: ['Leads.create'] });
		await watch('POST', [a]);
		const later = Date.now() + 20 * 3600_000;
		const res = await watch('PATCH', [
			{
				channel_id: a.channel_id,
				events: ['Leads.edit', 'Deals.all'],
				channel_expiry: new Date(later).toISOString().replace(/\.\d+Z$/, 'Z'),
				token: 'new-token',
			},
		]);
		expect(res.status).toBe(200);
		expect(res.body.watch[0].message).toBe('Successfully updated the subscribe details');
		const rows = (await call('GET', `/crm/v2.1/actions/watch?channel_id=${a.channel_id}`)).body
			.watch;
		expect(rows.map((r: any) => r.events)).toEqual([['Leads.create', 'Leads.edit'], ['Deals.all']]);
		expect(rows[0]).toMatchObject({ token: 'new-token', notify_url: a.notify_url });
		expect(Math.abs(Date.parse(rows[0].channel_expiry) - later)).toBeLessThan(1000);
		const unknown = await watch('PATCH', [
			{ channel_id: '55', channel_expiry: new Date(later).toISOString() },
		]);
		expect(unknown.status).toBe(400);
		expect(unknown.body.watch[0].code).toBe('NOT_SUBSCRIBED');
	});

	test('PATCH with _delete_events removes events (splitting `all`); a channel left without events is removed', async () => {
		const a = item({ events: ['Leads.all', 'Deals.create'] });
		await watch('POST', [a]);
		const res = await watch('PATCH', [
			{ channel_id: a.channel_id, events: ['Leads.create'], _delete_events: true },
		]);
		expect(res.status).toBe(200);
		expect(res.body.watch[0]).toMatchObject({
			code: 'SUCCESS',
			message: 'Successfully removed the subscribe details',
		});
		let rows = (await call('GET', `/crm/v2.1/actions/watch?channel_id=${a.channel_id}`)).body.watch;
		expect(rows.map((r: any) => r.events)).toEqual([
			['Leads.edit', 'Leads.delete'],
			['Deals.create'],
		]);

		const notWatched = await watch('PATCH', [
			{ channel_id: a.channel_id, events: ['Contacts.create'], _delete_events: true },
		]);
		expect(notWatched.status).toBe(400);
		expect(notWatched.body.watch[0]).toMatchObject({
			code: 'NOT_SUBSCRIBED',
			details: { api_name: 'events' },
		});
		rows = (await call('GET', `/crm/v2.1/actions/watch?channel_id=${a.channel_id}`)).body.watch;
		expect(rows).toHaveLength(2);

		expect(
			(
				await watch('PATCH', [
					{ channel_id: a.channel_id, events: ['Leads.all', 'Deals.create'], _delete_events: true },
				])
			).status,
		).toBe(200);
		expect((await call('GET', `/crm/v2.1/actions/watch?channel_id=${a.channel_id}`)).status).toBe(
			204,
		);
	});
});

describe('DisableNotifications', () => {
	test('removes channels; unknown ids give NOT_SUBSCRIBED items; `channel_ids` is required', async () => {
		const a = item();
		const b = item();
		await watch('POST', [a, b]);
		const res = await call(
			'DELETE',
			`/crm/v2.1/actions/watch?channel_ids=${a.channel_id},999,${b.channel_id}`,
		);
		expect(res.status).toBe(200);
		expect(res.body.watch.map((r: any) => r.code)).toEqual([
			'SUCCESS',
			'NOT_SUBSCRIBED',
			'SUCCESS',
		]);
		expect(res.body.watch[0]).toMatchObject({
			message: 'Successfully un-subscribed from actions-watch',
			details: { events: [{ channel_id: a.channel_id }] },
		});
		expect((await call('GET', '/crm/v2.1/actions/watch')).status).toBe(204);
		const again = await call('DELETE', `/crm/v2.1/actions/watch?channel_ids=${a.channel_id}`);
		expect(again.status).toBe(400);
		const missing = await call('DELETE', '/crm/v2.1/actions/watch');
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'channel_ids' },
		});
	});
});

describe('Deliveries (§9.4, §9.5)', () => {
	test('insert: one delivery per request listing every id, with the contract body', async () => {
		const a = item({ events: ['Leads.create'] });
		await watch('POST', [a]);
		const ids = await createLeads('One', 'Two');
		const [got] = await receiver.waitFor(1);
		expect(got.method).toBe('POST');
		expect(got.path).toBe('/hook?wf=42');
		expect(got.headers['content-type']).toBe('application/json');
		expect(got.body).toEqual({
			server_time: expect.any(Number),
			query_params: { wf: '42' },
			module: 'Leads',
			resource_uri: `${sb.url}/crm/v2.1/Leads`,
			ids,
			affected_fields: [],
			operation: 'insert',
			channel_id: a.channel_id,
			token: 'tok-123',
		});
		expect(Math.abs(got.body.server_time - Date.now())).toBeLessThan(5000);
		const [logged] = await settled(1);
		expect(logged).toMatchObject({
			channel_id: a.channel_id,
			outcome: 'delivered',
			ids,
			operation: 'insert',
		});
		expect(logged.attempts).toEqual([expect.objectContaining({ status: 200 })]);
	});

	test('update carries affected_fields and (when asked) affected_values; delete carries neither values', async () => {
		const [id1, id2] = await createLeads('U1', 'U2');
		const a = item({ events: ['Leads.edit', 'Leads.delete'], return_affected_field_values: true });
		await watch('POST', [a]);
		const upd = await call('PUT', '/crm/v2.1/Leads', {
			body: {
				data: [
					{ id: id1, Company: 'Acme' },
					{ id: id2, Company: 'Beta', First_Name: 'Bo' },
				],
			},
		});
		expect(upd.status).toBe(200);
		const [update] = await receiver.waitFor(1);
		expect(update.body).toMatchObject({
			operation: 'update',
			ids: [id1, id2],
			affected_fields: [{ [id1]: ['Company'] }, { [id2]: ['Company', 'First_Name'] }],
			affected_values: [
				{ record_id: id1, values: { Company: 'Acme' } },
				{ record_id: id2, values: { Company: 'Beta', First_Name: 'Bo' } },
			],
		});
		expect(Object.keys(update.body)).toEqual([
			'server_time',
			'affected_values',
			'query_params',
			'module',
			'resource_uri',
			'ids',
			'affected_fields',
			'operation',
			'channel_id',
			'token',
		]);
		expect((await call('DELETE', `/crm/v2.1/Leads?ids=${id1}`)).status).toBe(200);
		const [, del] = await receiver.waitFor(2);
		expect(del.body).toMatchObject({ operation: 'delete', ids: [id1], affected_fields: [] });
		expect(del.body).not.toHaveProperty('affected_values');
	});

	test('only matching channels receive; related-record changes honour notify_on_related_action; no token key without a token', async () => {
		const leadsCreate = item({ events: ['Leads.create'], token: undefined });
		const dealsOnly = item({ events: ['Deals.all'] });
		const editsNoRelated = item({ events: ['Leads.edit'], notify_on_related_action: false });
		await watch('POST', [leadsCreate, dealsOnly, editsNoRelated]);
		const [id] = await createLeads('Match');
		// a change made through a related-record operation: linking a campaign to the lead
		const campaign = (
			await call('POST', '/crm/v2.1/Campaigns', {
				body: { data: [{ Campaign_Name: 'Related change' }] },
			})
		).body.data[0].details.id;
		const link = await call('PUT', `/crm/v2.1/Leads/${id}/Campaigns`, {
			body: { data: [{ id: campaign }] },
		});
		expect(link.body.data[0]).toMatchObject({ status: 'success' });
		// it was published as a related update of the lead (test hook GET /__sandbox/changes, docs/protocol.md §14)
		const changes = (
			await api(`${sb.url}/__sandbox/changes`, undefined, { query: { module: 'Leads' } })
		).body.changes;
		expect(changes.at(-1)).toEqual({
			module: 'Leads',
			operation: 'update',
			related: true,
			ids: [id],
		});
		// the service fans a change out to the channels when it publishes it: the log is complete here
		await settled(1);
		const list = await deliveries();
		expect(list.map((d) => d.channel_id)).toEqual([leadsCreate.channel_id]);
		expect(list[0].body).not.toHaveProperty('token');
	});

	test('other write paths feed the same hook: upsert inserts and updates', async () => {
		const a = item({ events: ['Leads.all'] });
		await watch('POST', [a]);
		const res = await call('POST', '/crm/v2.1/Leads/upsert', {
			body: {
				data: [{ Last_Name: 'Ups', Email: 'ups@example.com' }],
				duplicate_check_fields: ['Email'],
			},
		});
		expect([200, 201]).toContain(res.status);
		const again = await call('POST', '/crm/v2.1/Leads/upsert', {
			body: {
				data: [{ Last_Name: 'Ups2', Email: 'ups@example.com' }],
				duplicate_check_fields: ['Email'],
			},
		});
		expect(again.body.data[0].action).toBe('update');
		const got = await receiver.waitFor(2);
		expect(bodies(got).map((b) => b.operation)).toEqual(['insert', 'update']);
		expect(got[1].body.affected_fields).toEqual([{ [res.body.data[0].details.id]: ['Last_Name'] }]);
	});

	test('mass update (one delivery listing every id) and lead conversion feed the same hook', async () => {
		const ids = await createLeads('M1', 'M2', 'M3');
		const a = item({ events: ['Leads.edit', 'Contacts.create'] });
		await watch('POST', [a]);
		const mass = await call('POST', '/crm/v2.1/Leads/actions/mass_update', {
			body: { data: [{ Company: 'Mass Co' }], ids },
		});
		expect(mass.status).toBe(200);
		const [massDelivery] = await receiver.waitFor(1);
		expect(massDelivery.body).toMatchObject({
			operation: 'update',
			module: 'Leads',
			ids,
			affected_fields: ids.map((id) => ({ [id]: ['Company'] })),
		});

		const convert = await call('POST', `/crm/v2.1/Leads/${ids[0]}/actions/convert`, {
			body: { data: [{}] },
		});
		expect(convert.status).toBe(200);
		const [got] = await receiver.waitFor(1, 5000, (r) => r.body.module === 'Contacts');
		expect(got.body).toMatchObject({
			operation: 'insert',
			module: 'Contacts',
			ids: [convert.body.data[0].Contacts],
		});
	});

	test('a failing receiver gets 3 attempts; a later 2xx ends the retries', async () => {
		const a = item({ events: ['Leads.create'] });
		await watch('POST', [a]);
		let calls = 0;
		receiver.respond = () => (++calls <= 2 ? 500 : 200);
		await createLeads('Retry');
		const [entry] = await settled(1);
		expect(entry.outcome).toBe('delivered');
		expect(entry.attempts.map((x: any) => x.status)).toEqual([500, 500, 200]);

		receiver.respond = () => 503;
		await api(`${sb.url}/__sandbox/deliveries`, undefined, { method: 'DELETE' });
		await createLeads('Fail');
		const [failed] = await settled(1);
		expect(failed.outcome).toBe('failed');
		expect(failed.attempts).toHaveLength(3);
		// "failed" is set after the last attempt, with no retry scheduled: nothing more is sent
		expect((await deliveries())[0].attempts).toHaveLength(3);
	});

	test('a receiver that cannot be reached fails after 3 attempts; the channel stays subscribed', async () => {
		const a = item({ events: ['Leads.create'], notify_url: 'http://127.0.0.1:9/unreachable' });
		await watch('POST', [a]);
		await createLeads('Nowhere');
		const [entry] = await settled(1);
		expect(entry.outcome).toBe('failed');
		expect(entry.attempts).toHaveLength(3);
		expect(entry.attempts[0].error).toBeTruthy();
		expect((await call('GET', `/crm/v2.1/actions/watch?channel_id=${a.channel_id}`)).status).toBe(
			200,
		);
	});

	test('an expired channel gets no deliveries and is gone from GetNotificationDetails', async () => {
		const a = item({
			events: ['Leads.create'],
			channel_expiry: new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
		});
		await watch('POST', [a]);
		expect(
			(
				await api(`${sb.url}/__sandbox/clock`, undefined, {
					method: 'POST',
					body: { advance_ms: 61_000 },
				})
			).status,
		).toBe(200);
		try {
			// deliveries are logged when the change commits, before the API answers: none for an expired channel
			await createLeads('After expiry');
			expect(await deliveries()).toEqual([]);
			expect((await call('GET', '/crm/v2.1/actions/watch')).status).toBe(204);
			const patch = await watch('PATCH', [
				{ channel_id: a.channel_id, channel_expiry: new Date(Date.now() + 3600_000).toISOString() },
			]);
			expect(patch.body.watch[0].code).toBe('NOT_SUBSCRIBED');
			// the id is free again
			expect((await watch('POST', [a])).body.watch[0].code).toBe('INVALID_DATA');
			expect((await watch('POST', [{ ...a, channel_expiry: undefined }])).body.watch[0].code).toBe(
				'SUCCESS',
			);
		} finally {
			sb.sandbox.clockOffsetMs = 0;
		}
	});
});

describe('shorter maximum expiry (sandbox option)', () => {
	test('channelMaxExpirySec caps the default and refuses a longer channel_expiry', async () => {
		const small = await startTestSandbox({ demo: false, channelMaxExpirySec: 5 });
		try {
			const tok = (await grantToken(small.url, { scope: 'CRM.notifications.ALL' })).access_token;
			const res = await api(`${small.url}/crm/v2.1/actions/watch`, tok, {
				method: 'POST',
				body: {
					watch: [
						{ channel_id: '1', events: ['Leads.create'], notify_url: 'http://127.0.0.1:9/' },
						{
							channel_id: '2',
							events: ['Leads.create'],
							notify_url: 'http://127.0.0.1:9/',
							channel_expiry: new Date(Date.now() + 10_000).toISOString(),
						},
					],
				},
			});
			expect(res.body.watch.map((r: any) => r.code)).toEqual(['SUCCESS', 'INVALID_DATA']);
			const expiry = Date.parse(res.body.watch[0].details.events[0].channel_expiry);
			expect(expiry).toBeLessThanOrEqual(Date.now() + 5000);
			expect(expiry).toBeGreaterThan(Date.now() + 2000);
		} finally {
			await small.close();
		}
	});
});
