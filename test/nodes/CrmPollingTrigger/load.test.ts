// The CRM Polling Trigger under load and faults, through n8n-core's PollContext against the
// sandbox: more changes than one page, a poll budget that ends the read early (the next poll goes
// on from there), records changed while a poll pages through them, and a CRM clock far from
// n8n's. Every change is emitted once, in the CRM's time order. Static data is staged per poll and
// committed when the poll returns, as n8n's durable poll cursors do.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useCrmFixture } from '../../harness/crm';
import { crmPoller } from '../../harness/poll';
import { advanceSandboxClock } from '../../harness/sandbox';

const crm = useCrmFixture({ sandbox: { demo: false } });
const tick = async (ms = 1000) => await advanceSandboxClock(crm.url, ms);

async function createMany(
	module: string,
	count: number,
	make: (i: number) => IDataObject,
): Promise<string[]> {
	const ids: string[] = [];
	for (let start = 0; start < count; start += 100) {
		const batch = Array.from({ length: Math.min(100, count - start) }, (_, k) => make(start + k));
		const res = await crm.api('POST', `/crm/v2.1/${module}`, { data: batch });
		expect(res.status).toBe(201);
		ids.push(...res.body.data.map((r: any) => String(r.details.id)));
	}
	return ids;
}
async function updateMany(module: string, records: IDataObject[]): Promise<void> {
	for (let start = 0; start < records.length; start += 100) {
		const res = await crm.api('PUT', `/crm/v2.1/${module}`, {
			data: records.slice(start, start + 100),
		});
		expect(res.status).toBe(200);
	}
}

/** Every item's (id, CRM time) appears once; times never go back. */
function expectOnceInOrder(items: INodeExecutionData[]): void {
	const keys = items.map((i) => `${i.json.id as string}|${i.json.time as string}`);
	expect(new Set(keys).size).toBe(keys.length);
	const times = items.map((i) => Date.parse(i.json.time as string));
	for (let k = 1; k < times.length; k++) expect(times[k]).toBeGreaterThanOrEqual(times[k - 1]);
}

test('more changes than a page, and a poll budget that ends each read after one page: all emitted once, in time order, over several polls', async () => {
	const p = crmPoller(
		crm,
		{ event: 'createdOrUpdated', modules: ['Vendors'] },
		{ budgetMs: 1, durable: true },
	);
	expect(await p.poll()).toBeNull();
	await tick();
	const ids = await createMany('Vendors', 1000, (i) => ({ Vendor_Name: `V${i}` }));
	await tick();
	await updateMany(
		'Vendors',
		ids.slice(0, 300).map((id, i) => ({ id, Vendor_Name: `V${i}-2` })),
	);
	const polls: number[] = [];
	const items: INodeExecutionData[] = [];
	for (;;) {
		const got = await p.poll();
		if (got === null) break;
		polls.push(got.length);
		items.push(...got);
	}
	// one page of 200 rows per poll: the budget ran out after each
	expect(polls.length).toBeGreaterThanOrEqual(5);
	expect(Math.max(...polls)).toBeLessThanOrEqual(200);
	expectOnceInOrder(items);
	expect(new Set(items.map((i) => i.json.id)).size).toBe(1000);
	// each record once, with its latest values
	const names = new Map(
		items.map((i) => [i.json.id as string, (i.json.record as IDataObject).Vendor_Name]),
	);
	expect(names.get(ids[0])).toBe('V0-2');
	expect(names.get(ids[999])).toBe('V999');
	expect(items).toHaveLength(1000);
});

test('records changed while a poll pages through them are neither skipped nor repeated', async () => {
	const p = crmPoller(
		crm,
		{ event: 'createdOrUpdated', modules: ['Campaigns'] },
		{ budgetMs: 1, durable: true },
	);
	expect(await p.poll()).toBeNull();
	await tick();
	const ids = await createMany('Campaigns', 600, (i) => ({ Campaign_Name: `C${i}` }));
	await tick();
	const first = (await p.poll())!;
	expect(first).toHaveLength(200);
	const read = first.map((i) => i.json.id as string);
	const unread = ids.filter((id) => !read.includes(id));
	// between two pages: some records already read and some not yet read change again
	await updateMany(
		'Campaigns',
		[...read.slice(0, 50), ...unread.slice(0, 50)].map((id) => ({
			id,
			Description: 'changed while paging',
		})),
	);
	const rest: INodeExecutionData[] = [];
	for (let got = await p.poll(); got !== null; got = await p.poll()) rest.push(...got);
	const all = [...first, ...rest];
	expectOnceInOrder(all);
	// every record's creation reached the workflow, and every later change once more
	expect(new Set(all.map((i) => i.json.id)).size).toBe(600);
	const changedAgain = all
		.filter((i) => (i.json.record as IDataObject).Description === 'changed while paging')
		.map((i) => i.json.id);
	expect(new Set(changedAgain)).toEqual(new Set([...read.slice(0, 50), ...unread.slice(0, 50)]));
	expect(all).toHaveLength(600 + 50);
});

test("the cursor comes from the CRM's clock: a CRM far ahead of n8n's clock loses nothing", async () => {
	const p = crmPoller(crm, { event: 'created', modules: ['Solutions'] });
	expect(await p.poll()).toBeNull();
	// ahead by 50 minutes (the sandbox token lives an hour); n8n's clock is then moved a week back
	await tick(50 * 60_000);
	const [ahead] = await createMany('Solutions', 1, () => ({ Solution_Title: 'ahead' }));
	expect((await p.poll())!.map((i) => i.json.id)).toEqual([ahead]);
	await tick(1000);
	const [next] = await createMany('Solutions', 1, () => ({ Solution_Title: 'next' }));
	expect((await p.poll())!.map((i) => i.json.id)).toEqual([next]);
	expect(await p.poll()).toBeNull();
	// the cursor is the CRM's time of that record, 50 minutes ahead of n8n's clock
	const record = await crm.api('GET', `/crm/v2.1/Solutions/${next}`);
	const cursor = (p.state().streams as any)['Solutions|Created_Time'];
	expect(cursor.time).toBe(Date.parse(record.body.data[0].Created_Time));
	expect(cursor.time - Date.now()).toBeGreaterThan(45 * 60_000);
});
