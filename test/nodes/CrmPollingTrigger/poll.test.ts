/* eslint-disable @typescript-eslint/no-explicit-any */
// The CRM Polling Trigger through n8n-core's PollContext against the sandbox: first activation
// starts from now, each poll emits the changes since the last one (created, updated, deleted),
// once each, in the CRM's time order; Fetch Test Event moves no cursor. The sandbox clock moves
// instead of waiting.
import type { IDataObject } from 'n8n-workflow';

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
const summary = (items: Array<{ json: IDataObject }> | null) => (items ?? []).map((i) => `${i.json.event as string}:${i.json.module as string}:${(i.json.record as IDataObject)?.Last_Name ?? (i.json.record as IDataObject)?.display_name ?? ''}`);

test('first activation starts from now; then created and updated records are emitted once each, in time order', async () => {
	await create('Leads', [{ Last_Name: 'Before' }]);
	const p = crmPoller(crm, { event: 'createdOrUpdated', modules: ['Leads'] });
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
	expect(items![0].json).toEqual(expect.objectContaining({ id: b, module: 'Leads', event: 'created', time: expect.any(String) }));
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
