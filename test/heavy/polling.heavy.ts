// Heavy acceptance test of the CRM Polling Trigger, run with `npm run test:heavy` (not part of
// `npm test`): 50,000 records created between two polls, 1,000 per CRM second, are all emitted,
// once each and in time order, by polls that each stop within n8n's default 45 s budget.
import { createRecord } from '../../sandbox/records.ts';
import { crmFixture } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { crmPoller } from '../harness/poll';
import { advanceSandboxClock } from '../harness/sandbox';

jest.setTimeout(1_200_000);

describe('CRM Polling Trigger heavy acceptance', () => {
	let crm: CrmFixture;
	beforeAll(async () => (crm = await crmFixture({ sandbox: { demo: false } })));
	afterAll(async () => await crm.close());

	test('50,000 changes between two polls: all emitted once, in time order, each poll within its budget', async () => {
		const p = crmPoller(
			crm,
			{ event: 'createdOrUpdated', modules: ['Leads'], options: { fields: ['Last_Name'] } },
			{ budgetMs: 45_000, durable: true },
		);
		expect(await p.poll()).toBeNull();
		const sandbox = crm.running.sandbox;
		const module = sandbox.module('Leads')!;
		const user = sandbox.user();
		const ids: string[] = [];
		for (let second = 0; second < 50; second++) {
			await advanceSandboxClock(crm.url, 1000);
			ids.push(
				...sandbox.store.transaction(() =>
					Array.from({ length: 1000 }, (_, i) => {
						const result = createRecord(
							sandbox,
							module,
							{ Last_Name: `Polled ${second * 1000 + i}` },
							{ v: 'v2.1', user, index: i },
						);
						if (!result.ok) throw new Error(JSON.stringify(result.body));
						return result.record.id as string;
					}),
				),
			);
		}
		const seen = new Map<string, number>();
		let last = 0;
		let polls = 0;
		for (;;) {
			const t = Date.now();
			const items = await p.poll();
			const ms = Date.now() - t;
			if (items === null) break;
			polls++;
			console.log(`poll ${polls}: ${items.length} items in ${ms} ms`);
			// the poll stops reading at 70 % of the budget; one more page may finish after it
			expect(ms).toBeLessThan(45_000);
			for (const item of items) {
				seen.set(item.json.id as string, (seen.get(item.json.id as string) ?? 0) + 1);
				const time = Date.parse(item.json.time as string);
				expect(time).toBeGreaterThanOrEqual(last);
				last = time;
			}
		}
		expect(seen.size).toBe(50_000);
		expect([...seen.values()].every((n) => n === 1)).toBe(true);
		expect(ids.every((id) => seen.has(id))).toBe(true);
	});
});
