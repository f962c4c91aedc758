// CRM Bulk as a first-time user meets it, through the engine against the sandbox: many input items
// start one job each until the CRM refuses more (docs/protocol.md §7, §8.1: too many open jobs), and
// the error says how many and how to start one (Execute Once); bulk-read conditions on a picklist
// field, in the form saved before the picklist dropdown and in the current one, export the same
// records, and the field list keeps the form a condition was saved in.
// The retry policy runs as shipped (RETRY: a refused create is tried 5 times, back-off 1, 2, 4, 8 s):
// the two refusals this file shows run at once, so the file waits ~15 s for them, not 30.
import { RETRY } from '../../../nodes/shared/transport';
import { bulkReadJobs, crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';
import { waitFor } from '../../harness/wait';

const POLL = { initialInterval: 0.02, maxInterval: 0.1, timeout: 1 };
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { row: i } }));

describe('CRM Bulk › one job per input item', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		// jobs stay open (one state step a minute), as a big export does
		crm = await crmFixture({ sandbox: { jobStepMs: 60_000 } });
	});
	afterAll(async () => {
		await crm.close();
	});

	const openJobs = async () =>
		(await bulkReadJobs(crm)).filter((j) => j.state === 'ADDED' || j.state === 'IN PROGRESS');

	test("40 input items: 5 jobs start, the CRM refuses the 6th, the error names the count and Execute Once; one input item refused: the service's own error", async () => {
		const before = (await openJobs()).length;
		expect(before).toBe(0);
		await crm.clearRequests();
		const node = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Deals',
			waitForCompletion: false,
		});
		const many = crm.run(node, items(40));
		// once the 40-item run holds every open-job slot, a run of one item is refused too; both
		// runs back off at the same time
		await waitFor(async () => (await openJobs()).length, {
			ok: (n) => n === 5,
			timeout: 10_000,
			interval: 20,
			what: '5 open jobs',
		});
		const single = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Deals',
			waitForCompletion: false,
		});
		const [run, one] = await Promise.all([many, crm.run(single)]);

		const error = errorOf(run, node.name);
		expect((await openJobs()).length - before).toBe(5);
		expect(error?.message).toBe(
			'5 bulk read jobs were started, one per input item (40 items), and the CRM refused more [TOO_MANY_REQUESTS]',
		);
		expect(error?.description).toContain('turn on "Execute Once" in the node\'s Settings');

		const oneError = errorOf(one, single.name);
		expect(oneError?.message).toMatch(/\[TOO_MANY_REQUESTS\]$/);
		expect(oneError?.message).not.toContain('per input item');

		// each run's refused create (429) was retried, and refused again: RETRY.tries refusals each
		const refused = (await crm.requests()).filter(
			(r) => r.method === 'POST' && r.url === '/crm/bulk/v2.1/read' && r.status === 429,
		);
		expect(refused.length).toBe(2 * RETRY.tries);
	});

	test('the same node with Execute Once: one job for the 40 items', async () => {
		const before = (await bulkReadJobs(crm)).length;
		// the jobs of the test above are still open: let them finish first (each step on demand)
		for (const job of await openJobs()) {
			for (let { state } = job; state === 'ADDED' || state === 'IN PROGRESS'; )
				state = (await crm.hook('POST', `/bulk/read/${job.id}/advance`)).body.state;
		}
		expect(await openJobs()).toEqual([]);
		const node = crm.node(
			'crmBulk',
			{ resource: 'bulkRead', operation: 'create', module: 'Deals', waitForCompletion: false },
			{ executeOnce: true },
		);
		const out = outputOf(await crm.run(node, items(40)), node.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({ code: 'ADDED_SUCCESSFULLY', details: { state: 'ADDED' } });
		expect((await bulkReadJobs(crm)).length - before).toBe(1);
	});
});

describe('CRM Bulk › bulk-read conditions on a picklist, saved forms', () => {
	let crm: CrmFixture;
	beforeAll(
		async () =>
			(crm = await crmFixture({
				sandbox: { jobStepMs: 20, knobs: { bulkReadDownloadsPerMinute: 1000 } },
			})),
	);
	afterAll(async () => await crm.close());

	const exportWon = (condition: Record<string, string>) =>
		crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Deals',
			fields: ['Deal_Name', 'Stage'],
			filterType: 'conditions',
			matchType: 'and',
			conditions: { condition: [condition] },
			waitForCompletion: true,
			output: 'records',
			polling: POLL,
		});

	async function closedWonIds(): Promise<string[]> {
		const ids: string[] = [];
		for (let page = 1; ; page++) {
			const res = await crm.api('GET', `/crm/v2.1/Deals?per_page=200&page=${page}&fields=Stage`);
			ids.push(
				...(res.body?.data ?? [])
					.filter((d: any) => d.Stage === 'Closed Won')
					.map((d: any) => String(d.id)),
			);
			if (!res.body?.info?.more_records) return ids.sort();
		}
	}

	test('the current form (Stage|picklist + picklist value) and the earlier one (Stage + typed value) export the Closed Won deals', async () => {
		const expected = await closedWonIds();
		expect(expected.length).toBeGreaterThan(0);
		const current = exportWon({
			field: 'Stage|picklist',
			comparator: 'equal',
			picklistValue: 'Closed Won',
		});
		const earlier = exportWon({ field: 'Stage', comparator: 'equal', value: 'Closed Won' });
		for (const node of [current, earlier]) {
			const rows = outputOf(await crm.run(node), node.name).map((i) => i.json);
			expect(rows.map((r) => String(r.id)).sort()).toEqual(expected);
			expect(rows.every((r) => r.Stage === 'Closed Won')).toBe(true);
		}
		// both sent the same criteria
		const sent = (await bulkReadJobs(crm)).slice(-2).map((j) => j.query.criteria);
		expect(sent[0]).toEqual({ api_name: 'Stage', comparator: 'equal', value: 'Closed Won' });
		expect(sent[1]).toEqual(sent[0]);
	});

	test('the field list offers a saved condition\'s own form, so it opens without "not supported"', async () => {
		const parameters = (field: string) => ({
			resource: 'bulkRead',
			operation: 'create',
			module: 'Deals',
			filterType: 'conditions',
			conditions: { condition: [{ field }] },
		});
		const values = async (field: string) =>
			(
				await crm.loadOptions(
					'crmBulk',
					'getCriteriaFields',
					parameters(field),
					'parameters.conditions.condition[0].field',
				)
			).map((o) => String(o.value));
		// new conditions: picklists marked (their value is a dropdown)
		const fresh = await values('Stage|picklist');
		expect(fresh).toContain('Stage|picklist');
		expect(fresh).not.toContain('Stage');
		expect(fresh).toContain('Deal_Name');
		// a condition saved with the plain name keeps it (and its typed value); other picklists stay marked
		const earlier = await values('Stage');
		expect(earlier).toContain('Stage');
		expect(earlier).not.toContain('Stage|picklist');
		expect(earlier).toContain('Lead_Source|picklist');
	});
});
