// CRM Notification › Channel in n8n's engine against the sandbox over HTTP.
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

let crm: CrmFixture;

beforeAll(async () => {
	crm = await crmFixture({ sandbox: { demo: false } });
});
afterAll(async () => await crm.close());

afterEach(async () => {
	const res = await crm.api('GET', '/crm/v2.1/actions/watch');
	if (res.status === 200) {
		const ids = [...new Set(res.body.watch.map((w: any) => w.channel_id))];
		await crm.api('DELETE', `/crm/v2.1/actions/watch?channel_ids=${ids.join(',')}`);
	}
});

const events = (...pairs: Array<[string, string]>) => ({
	event: pairs.map(([module, eventType]) => ({ module, eventType })),
});
const watchRequests = async (method: string) =>
	(await crm.requests()).filter(
		(r) => r.method === method && r.url.startsWith('/crm/v2.1/actions/watch'),
	);
const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();

async function rows(query = ''): Promise<any[]> {
	const res = await crm.api('GET', `/crm/v2.1/actions/watch${query}`);
	return res.status === 200 ? res.body.watch : [];
}

describe('CRM Notification › Channel (engine → sandbox over HTTP)', () => {
	test('enable: input items go 100 per request; a random channel id when none is given; options reach the channel', async () => {
		const enable = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'enable',
			channelId: '={{ $json.id }}',
			eventsUi: events(['Leads', 'create'], ['Deals', 'all']),
			notifyUrl: 'https://receiver.example/hook?wf={{ $itemIndex }}',
			options: {
				token: 'secret-token',
				returnAffectedFieldValues: true,
				notifyOnRelatedAction: false,
				channelExpiry: '={{ $json.expiry }}',
			},
		});
		await crm.clearRequests();
		const input = [
			{ json: { id: '1000000068001', expiry: inOneHour() } },
			{ json: { id: '', expiry: inOneHour() } },
		];
		const out = outputOf(await crm.run(enable, input), enable.name);
		expect(await watchRequests('POST')).toHaveLength(1);
		expect(out).toHaveLength(2);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(out[0].json).toMatchObject({
			channel_id: '1000000068001',
			code: 'SUCCESS',
			status: 'success',
		});
		expect(out[1].json.channel_id).toMatch(/^[1-9]\d{17}$/);
		const [lead, deal] = await rows('?channel_id=1000000068001');
		expect(lead).toMatchObject({
			events: ['Leads.create'],
			token: 'secret-token',
			return_affected_field_values: true,
			notify_on_related_action: false,
		});
		expect(deal.events).toEqual(['Deals.all']);
		expect(
			Math.abs(Date.parse(lead.channel_expiry) - Date.parse(input[0].json.expiry)),
		).toBeLessThan(1000);

		const many = Array.from({ length: 101 }, (_, i) => ({
			json: { id: String(2000000000000 + i), expiry: inOneHour() },
		}));
		await crm.clearRequests();
		expect(outputOf(await crm.run(enable, many), enable.name)).toHaveLength(101);
		expect(await watchRequests('POST')).toHaveLength(2);
	});

	test('enable validates before sending (token ≤ 50, expiry ≤ 1 day, numeric id, events, URL) and reports CRM per-item errors', async () => {
		const base = {
			resource: 'channel',
			operation: 'enable',
			channelId: '42',
			eventsUi: events(['Leads', 'all']),
			notifyUrl: 'https://receiver.example/hook',
		};
		await crm.clearRequests();
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[
				{ options: { token: 't'.repeat(51) } },
				/Token is 51 characters long; the CRM accepts at most 50/,
			],
			[
				{ options: { channelExpiry: new Date(Date.now() + 2 * 86_400_000).toISOString() } },
				/Channel Expiry can be at most one day ahead/,
			],
			[{ channelId: 'abc' }, /Channel ID must be a number/],
			[{ eventsUi: {} }, /Events: add at least one module and operation/],
			[{ notifyUrl: 'not a url' }, /Notify URL must be an absolute http\(s\) URL/],
		];
		for (const [override, message] of cases) {
			const node = crm.node('crmNotification', { ...base, ...override });
			const run = await crm.run(node);
			expect(errorOf(run, node.name)?.message).toMatch(message);
		}
		expect(await watchRequests('POST')).toHaveLength(0);

		// duplicate channel id: the CRM's DUPLICATE_DATA for that item only (continue on fail)
		const ok = crm.node(
			'crmNotification',
			{ ...base, channelId: '={{ $json.id }}' },
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(ok, [{ json: { id: '77' } }, { json: { id: '77' } }]),
			ok.name,
		);
		expect(out[0].json.code).toBe('SUCCESS');
		expect(out[1].json).toMatchObject({
			error: expect.stringContaining('DUPLICATE_DATA'),
			details: { code: 'DUPLICATE_DATA' },
		});
	});

	test('get many: one item per channel and module, paged by the runner, filters by module and channel', async () => {
		await crm.api('POST', '/crm/v2.1/actions/watch', {
			watch: [
				{
					channel_id: '11',
					events: ['Leads.create', 'Contacts.edit'],
					notify_url: 'https://r.example/a',
				},
				{ channel_id: '12', events: ['Deals.all'], notify_url: 'https://r.example/b' },
			],
		});
		const all = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'getAll',
			returnAll: true,
		});
		const out = outputOf(await crm.run(all), all.name);
		expect(out.map((i) => [i.json.channel_id, i.json.resource_name])).toEqual([
			['11', 'Leads'],
			['11', 'Contacts'],
			['12', 'Deals'],
		]);
		const limited = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
		});
		expect(outputOf(await crm.run(limited), limited.name)).toHaveLength(2);
		const filtered = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'getAll',
			returnAll: true,
			filters: { module: 'Contacts' },
		});
		expect(outputOf(await crm.run(filtered), filtered.name).map((i) => i.json.events)).toEqual([
			['Contacts.edit'],
		]);
		const byId = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'getAll',
			returnAll: true,
			filters: { channelId: '12' },
		});
		expect(outputOf(await crm.run(byId), byId.name)).toHaveLength(1);

		await crm.api('DELETE', '/crm/v2.1/actions/watch?channel_ids=11,12');
		expect(outputOf(await crm.run(all), all.name)).toEqual([]);
	});

	test('update: merge adds events and renews; replace resets details left out', async () => {
		await crm.api('POST', '/crm/v2.1/actions/watch', {
			watch: [
				{
					channel_id: '21',
					events: ['Leads.create'],
					notify_url: 'https://r.example/a',
					token: 'keep-me',
					return_affected_field_values: true,
				},
			],
		});
		const expiry = new Date(Date.now() + 20 * 3600_000).toISOString();
		const merge = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'update',
			updateMode: 'merge',
			channelId: '21',
			eventsUi: events(['Leads', 'delete']),
			updateFields: { channelExpiry: expiry },
		});
		const merged = outputOf(await crm.run(merge), merge.name);
		expect(merged[0].json).toMatchObject({
			channel_id: '21',
			code: 'SUCCESS',
			message: 'Successfully updated the subscribe details',
		});
		let [row] = await rows('?channel_id=21');
		expect(row).toMatchObject({
			events: ['Leads.create', 'Leads.delete'],
			token: 'keep-me',
			return_affected_field_values: true,
		});
		expect(Math.abs(Date.parse(row.channel_expiry) - Date.parse(expiry))).toBeLessThan(1000);

		const replace = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'update',
			updateMode: 'replace',
			channelId: '21',
			eventsUi: events(['Contacts', 'edit']),
			notifyUrl: 'https://r.example/new',
		});
		await crm.clearRequests();
		outputOf(await crm.run(replace), replace.name);
		expect(await watchRequests('PUT')).toHaveLength(1);
		[row] = await rows('?channel_id=21');
		expect(row).toMatchObject({
			events: ['Contacts.edit'],
			notify_url: 'https://r.example/new',
			return_affected_field_values: false,
		});
		expect(row).not.toHaveProperty('token');

		const unknown = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'update',
			updateMode: 'merge',
			channelId: '999',
			updateFields: { channelExpiry: expiry },
		});
		const error = errorOf(await crm.run(unknown), unknown.name);
		expect(error?.message).toMatch(/NOT_SUBSCRIBED/);
	});

	test('remove events and disable', async () => {
		await crm.api('POST', '/crm/v2.1/actions/watch', {
			watch: [
				{
					channel_id: '31',
					events: ['Leads.all', 'Deals.create'],
					notify_url: 'https://r.example/a',
				},
				{ channel_id: '32', events: ['Deals.create'], notify_url: 'https://r.example/b' },
			],
		});
		const remove = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'removeEvents',
			channelId: '31',
			eventsUi: events(['Deals', 'create'], ['Leads', 'edit']),
		});
		const removed = outputOf(await crm.run(remove), remove.name);
		expect(removed[0].json).toMatchObject({
			code: 'SUCCESS',
			message: 'Successfully removed the subscribe details',
		});
		expect((await rows('?channel_id=31')).map((r) => r.events)).toEqual([
			['Leads.create', 'Leads.delete'],
		]);

		const notWatched = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'removeEvents',
			channelId: '31',
			eventsUi: events(['Contacts', 'all']),
		});
		expect(errorOf(await crm.run(notWatched), notWatched.name)?.message).toMatch(/NOT_SUBSCRIBED/);

		const disable = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'disable',
			channelIds: '31, 32',
		});
		const disabled = outputOf(await crm.run(disable), disable.name);
		expect(disabled.map((i) => i.json.code)).toEqual(['SUCCESS', 'SUCCESS']);
		expect(await rows()).toEqual([]);

		const tooMany = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'disable',
			channelIds: Array.from({ length: 101 }, (_, i) => i + 1).join(','),
		});
		await crm.clearRequests();
		expect(errorOf(await crm.run(tooMany), tooMany.name)?.message).toMatch(/at most 100/);
		expect(await watchRequests('DELETE')).toHaveLength(0);
		const gone = crm.node('crmNotification', {
			resource: 'channel',
			operation: 'disable',
			channelIds: '31',
		});
		expect(errorOf(await crm.run(gone), gone.name)?.message).toMatch(/NOT_SUBSCRIBED/);
	});
});
