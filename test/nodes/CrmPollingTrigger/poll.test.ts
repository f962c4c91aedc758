// The CRM Polling Trigger through n8n-core's PollContext against the sandbox: first activation
// starts from now, each poll emits the changes since the last one (created, updated, deleted),
// once each, in the CRM's time order; Fetch Test Event moves no cursor. The sandbox clock moves
// instead of waiting.
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { useCrmFixture } from '../../harness/crm';
import { crmPoller } from '../../harness/poll';
import { advanceSandboxClock } from '../../harness/sandbox';

const crm = useCrmFixture({ sandbox: { demo: false } });

async function create(module: string, records: IDataObject[]): Promise<string[]> {
	const res = await crm.api('POST', `/crm/v2.1/${module}`, { data: records });
	expect(res.status).toBe(201);
	return res.body.data.map((r: any) => String(r.details.id));
}
async function update(module: string, records: IDataObject[]): Promise<void> {
	const res = await crm.api('PUT', `/crm/v2.1/${module}`, { data: records });
	expect(res.status).toBe(200);
}
async function remove(module: string, ids: string[]): Promise<void> {
	const res = await crm.api('DELETE', `/crm/v2.1/${module}?ids=${ids.join(',')}`);
	expect(res.status).toBe(200);
}
const tick = async (ms = 1000) => await advanceSandboxClock(crm.url, ms);
const summary = (items: Array<{ json: IDataObject }> | null) =>
	(items ?? []).map(
		(i) =>
			`${i.json.event as string}:${i.json.module as string}:${(i.json.record as IDataObject)?.Last_Name ?? (i.json.record as IDataObject)?.display_name ?? ''}`,
	);

test('first activation starts from now; then created and updated records are emitted once each, in time order', async () => {
	// several records stamped with the latest second (one write): none of them is emitted later
	await create('Leads', [
		{ Last_Name: 'Before 1' },
		{ Last_Name: 'Before 2' },
		{ Last_Name: 'Before 3' },
	]);
	const p = crmPoller(crm, { event: 'createdOrUpdated', modules: ['Leads'] });
	expect(await p.poll()).toBeNull();
	expect(await p.poll()).toBeNull();
	await tick();
	const [a] = await create('Leads', [{ Last_Name: 'A' }]);
	await tick();
	const [b] = await create('Leads', [{ Last_Name: 'B' }]);
	await tick();
	await update('Leads', [{ id: a, Last_Name: 'A2' }]);
	// A was created and then updated between two polls: one item, its creation, with what it holds now
	const items = await p.poll();
	expect(summary(items)).toEqual(['created:Leads:B', 'created:Leads:A2']);
	expect(items![0].json).toEqual(
		expect.objectContaining({ id: b, module: 'Leads', event: 'created', time: expect.any(String) }),
	);
	expect((items![1].json.record as IDataObject).id).toBe(a);
	await tick();
	await update('Leads', [{ id: b, Last_Name: 'B2' }]);
	expect(summary(await p.poll())).toEqual(['updated:Leads:B2']);
	// nothing new: nothing emitted, and a change in the same second as the cursor is still seen
	expect(await p.poll()).toBeNull();
	const [c] = await create('Leads', [{ Last_Name: 'SameSecond' }]);
	const again = await p.poll();
	expect(summary(again)).toEqual(['created:Leads:SameSecond']);
	expect(again![0].json.id).toBe(c);
	expect(await p.poll()).toBeNull();
});

test('Record Deleted and Any Change: deletions once each; a record deleted and re-created is a deletion and a creation; custom modules too', async () => {
	const [old] = await create('Contacts', [{ Last_Name: 'Old' }]);
	const p = crmPoller(crm, { event: 'any', modules: ['Contacts', 'Projects'] });
	expect(await p.poll()).toBeNull();
	await tick();
	await remove('Contacts', [old]);
	const [again] = await create('Contacts', [{ Last_Name: 'Old' }]);
	await create('Projects', [{ Name: 'Apollo' }]);
	const items = await p.poll();
	expect(items!.map((i) => [i.json.event, i.json.module, i.json.id])).toEqual(
		expect.arrayContaining([
			['deleted', 'Contacts', old],
			['created', 'Contacts', again],
			['created', 'Projects', expect.any(String)],
		]),
	);
	expect(items).toHaveLength(3);
	expect(
		(items!.find((i) => i.json.event === 'deleted')!.json.record as IDataObject).display_name,
	).toBe('Old');
	expect(await p.poll()).toBeNull();

	const deletes = crmPoller(crm, { event: 'deleted', modules: ['Contacts'] });
	expect(await deletes.poll()).toBeNull(); // the deletion above happened before this activation
	await tick();
	await remove('Contacts', [again]);
	expect((await deletes.poll())!.map((i) => [i.json.event, i.json.id])).toEqual([
		['deleted', again],
	]);
	expect(await deletes.poll()).toBeNull();

	// a module with no records at activation: its deletions are read from the beginning
	const empty = crmPoller(crm, { event: 'deleted', modules: ['Products'] });
	expect(await empty.poll()).toBeNull();
	const [product] = await create('Products', [{ Product_Name: 'Short-lived' }]);
	await tick();
	await remove('Products', [product]);
	expect((await empty.poll())!.map((i) => [i.json.event, i.json.module, i.json.id])).toEqual([
		['deleted', 'Products', product],
	]);
	expect(await empty.poll()).toBeNull();
});

test('an idle poll is one API call per module, two with deletions', async () => {
	const p = crmPoller(crm, { event: 'createdOrUpdated', modules: ['Leads', 'Contacts'] });
	const any = crmPoller(crm, { event: 'any', modules: ['Leads'] });
	await p.poll();
	await any.poll();
	await crm.clearRequests();
	expect(await p.poll()).toBeNull();
	const calls = (await crm.requests()).filter((r) => r.url.includes('/crm/'));
	expect(calls.map((r) => `${r.method} ${new URL(r.url, crm.url).pathname}`)).toEqual([
		'POST /crm/v2.1/coql',
		'POST /crm/v2.1/coql',
	]);
	await crm.clearRequests();
	expect(await any.poll()).toBeNull();
	const anyCalls = (await crm.requests()).filter((r) => r.url.includes('/crm/'));
	expect(anyCalls.map((r) => `${r.method} ${new URL(r.url, crm.url).pathname}`)).toEqual([
		'POST /crm/v2.1/coql',
		'GET /crm/v2.1/Leads/deleted',
	]);
});

test("a poll that starts while the previous poll of the node still runs reads nothing: the slow poll's changes are emitted once", async () => {
	const p = crmPoller(crm, { event: 'created', modules: ['Leads'] }, { durable: true });
	expect(await p.poll()).toBeNull();
	await tick();
	await create('Leads', [{ Last_Name: 'Overlap One' }, { Last_Name: 'Overlap Two' }]);
	await tick();
	const plan = async (body?: IDataObject) =>
		await fetch(
			`${crm.url}/__sandbox/fault-plan`,
			body
				? {
						method: 'PUT',
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify(body),
					}
				: { method: 'DELETE' },
		);
	// the CRM answers the change query late: the first poll is still running when the next starts
	await plan({ delayMs: 1500, pathIncludes: '/coql' });
	const slow = p.poll();
	await sleep(300);
	await crm.clearRequests();
	expect(await p.poll()).toBeNull();
	expect((await crm.requests()).filter((r) => r.url.includes('/crm/'))).toEqual([]);
	expect(summary(await slow)).toEqual(['created:Leads:Overlap One', 'created:Leads:Overlap Two']);
	await plan();
	// the cursor the slow poll moved stands: nothing again, and the next poll runs
	expect(await p.poll()).toBeNull();
	await create('Leads', [{ Last_Name: 'Overlap Three' }]);
	await tick();
	expect(summary(await p.poll())).toEqual(['created:Leads:Overlap Three']);
});

test("published with n8n's scheduler: changes made before the first scheduled poll are emitted by it, nothing from before publishing", async () => {
	await create('Leads', [{ Last_Name: 'Before Publishing' }]);
	await tick();
	const p = crmPoller(crm, { event: 'createdOrUpdated', modules: ['Leads'] }, { durable: true });
	// the publishing poll starts from now; n8n keeps none of its node static data
	expect(await p.poll('trigger', 'publishing')).toBeNull();
	expect(p.state()).toEqual({});
	await tick();
	await create('Leads', [{ Last_Name: 'Between' }]);
	await tick();
	expect(summary(await p.poll('trigger', 'scheduled'))).toEqual(['created:Leads:Between']);
	await tick();
	await create('Leads', [{ Last_Name: 'Later' }]);
	await tick();
	expect(summary(await p.poll('trigger', 'scheduled'))).toEqual(['created:Leads:Later']);
	expect(await p.poll('trigger', 'scheduled')).toBeNull();
	// the start is used once: the global static data no longer holds it
	expect(Object.keys(p.workflow.getStaticData('global'))).toEqual([]);
});

test('a node with no kept start (its first poll is a scheduled one) starts from now', async () => {
	await create('Leads', [{ Last_Name: 'Old One' }]);
	await tick();
	const p = crmPoller(crm, { event: 'createdOrUpdated', modules: ['Leads'] }, { durable: true });
	expect(await p.poll('trigger', 'scheduled')).toBeNull();
	await tick();
	await create('Leads', [{ Last_Name: 'New One' }]);
	await tick();
	expect(summary(await p.poll('trigger', 'scheduled'))).toEqual(['created:Leads:New One']);
});

test('Fetch Test Event shows the latest matching record and moves no cursor', async () => {
	const p = crmPoller(crm, {
		event: 'created',
		modules: ['Accounts'],
		conditions: {
			condition: [{ field: 'Account_Name', operator: 'starts_with', value: "Bank's" }],
		},
	});
	expect(await p.poll()).toBeNull();
	const before = JSON.parse(JSON.stringify(p.state()));
	await tick();
	const [bank] = await create('Accounts', [{ Account_Name: "Bank's A" }]);
	await tick();
	await create('Accounts', [{ Account_Name: 'Shop B' }]);
	const shown = await p.poll('manual');
	expect(
		shown!.map((i) => [i.json.event, i.json.id, (i.json.record as IDataObject).Account_Name]),
	).toEqual([['created', bank, "Bank's A"]]);
	expect(p.state()).toEqual(before);
	expect(p.emitted).toHaveLength(0);
	// the production poll still emits it (and only the matching one)
	expect((await p.poll())!.map((i) => i.json.id)).toEqual([bank]);
});

test('Start From backfills from that time; Fields to Return narrows the record', async () => {
	await tick(60_000);
	const from = new Date(
		Date.parse((await crm.api('POST', '/__sandbox/clock', { advance_ms: 0 })).body.now),
	).toISOString();
	await tick();
	const ids = await create('Deals', [
		{ Deal_Name: 'D1', Stage: 'Qualification', Amount: 5 },
		{ Deal_Name: 'D2', Stage: 'Qualification', Amount: 6 },
	]);
	const p = crmPoller(crm, {
		event: 'created',
		modules: ['Deals'],
		options: { startFrom: from, fields: ['Deal_Name'] },
	});
	const items = await p.poll();
	expect(items!.map((i) => i.json.record)).toEqual([
		{ id: ids[0], Deal_Name: 'D1' },
		{ id: ids[1], Deal_Name: 'D2' },
	]);
	expect(await p.poll()).toBeNull();
});

test('Only When These Fields Change: updates of other fields start nothing; the item lists the changed fields with old values', async () => {
	const [known] = await create('Leads', [{ Last_Name: 'Watch', Email: 'a@x.io', Phone: '1' }]);
	const p = crmPoller(crm, {
		event: 'updated',
		modules: ['Leads'],
		watchFields: ['Email', 'Lead_Status'],
	});
	expect(await p.poll()).toBeNull();
	await tick();
	// a record not seen since activation: what changed is unknown, so it is emitted
	await update('Leads', [{ id: known, Phone: '2' }]);
	const first = await p.poll();
	expect(first!.map((i) => [i.json.id, i.json.changed_fields, i.json.previous])).toEqual([
		[known, null, null],
	]);
	await tick();
	await update('Leads', [{ id: known, Phone: '3' }]);
	expect(await p.poll()).toBeNull();
	await tick();
	await update('Leads', [{ id: known, Email: 'b@x.io' }]);
	const second = await p.poll();
	expect(
		second!.map((i) => [
			i.json.id,
			i.json.changed_fields,
			i.json.previous,
			(i.json.record as IDataObject).Email,
		]),
	).toEqual([[known, ['Email'], { Email: 'a@x.io' }, 'b@x.io']]);
	// created after activation: its values are known from its creation
	await tick();
	const [fresh] = await create('Leads', [{ Last_Name: 'Fresh', Email: 'f@x.io' }]);
	expect(await p.poll()).toBeNull();
	await tick();
	await update('Leads', [{ id: fresh, Last_Name: 'Fresher' }]);
	expect(await p.poll()).toBeNull();
	await tick();
	await update('Leads', [{ id: fresh, Lead_Status: 'Contacted' }]);
	expect((await p.poll())!.map((i) => [i.json.id, i.json.changed_fields, i.json.previous])).toEqual(
		[[fresh, ['Lead_Status'], { Lead_Status: null }]],
	);
});

test('bad input is refused before any request, naming the parameter', async () => {
	await crm.clearRequests();
	const bad = crmPoller(crm, {
		event: 'created',
		modules: ['Leads'],
		options: { startFrom: 'not a date' },
	});
	await expect(bad.poll()).rejects.toThrow('Start From: "not a date" is not a date and time');
	const many = crmPoller(crm, {
		event: 'created',
		modules: ['Leads'],
		conditions: {
			condition: Array.from({ length: 11 }, (_, i) => ({
				field: 'Last_Name',
				operator: 'equals',
				value: `n${i}`,
			})),
		},
	});
	await expect(many.poll()).rejects.toThrow('Filter has 11 conditions; at most 10 are allowed');
	const injected = crmPoller(crm, {
		event: 'created',
		modules: ['Leads'],
		conditions: { condition: [{ field: 'Last_Name or 1', operator: 'equals', value: 'x' }] },
	});
	await expect(injected.poll()).rejects.toThrow(
		'Filter condition 1: "Last_Name or 1" is not a field API name',
	);
	expect((await crm.requests()).filter((r) => r.url.includes('/crm/'))).toEqual([]);
});
