// CRM Bulk as a first-time user meets it, through the engine against the sandbox: many input items
// start one job each within the CRM's limits (docs/protocol.md §7, §8.1: 5 open jobs, 10 result
// downloads a minute), waiting for a slot instead of failing, so 40 items give 40 jobs; an item
// whose job cannot be started or finished fails alone, and every job started reaches the output
// (Continue On Fail) or the error; bulk-read conditions on a picklist field, in the form saved
// before the picklist dropdown and in the current one, export the same records, and the field list
// keeps the form a condition was saved in.
import type { IRun } from 'n8n-workflow';

import { bulkReadJobs, crmFixture, refusedCalls } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';
import { waitFor } from '../../harness/wait';

const POLL = { initialInterval: 0.02, maxInterval: 0.1, timeout: 1 };
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ json: { row: i } }));

const isOpen = (job: { state: string }) => job.state === 'ADDED' || job.state === 'IN PROGRESS';

/** CRM Bulk → Bulk Read → Create Job on Deals, not waiting unless `parameters` say so. */
const bulkReadNode = (crm: CrmFixture, parameters: Record<string, unknown> = {}, extra = {}) =>
	crm.node(
		'crmBulk',
		{
			resource: 'bulkRead',
			operation: 'create',
			module: 'Deals',
			waitForCompletion: false,
			polling: POLL,
			...parameters,
		},
		extra,
	);

/**
 * Runs a workflow while moving the sandbox's open bulk-read jobs on (one state step each every
 * 100 ms, as the CRM would), failing the jobs `fail` picks instead.
 */
async function driving(
	crm: CrmFixture,
	run: Promise<IRun>,
	fail: (job: { id: string }, index: number) => boolean = () => false,
): Promise<IRun> {
	let done = false;
	const driver = (async () => {
		while (!done) {
			const jobs = await bulkReadJobs(crm);
			for (const [index, job] of jobs.entries()) {
				if (!isOpen(job)) continue;
				if (fail(job, index)) await crm.hook('POST', `/bulk/read/${job.id}/fail`);
				await crm.hook('POST', `/bulk/read/${job.id}/advance`);
			}
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	})();
	try {
		return await run;
	} finally {
		done = true;
		await driver;
	}
}

describe("CRM Bulk › one job per input item, within the CRM's limits", () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		// jobs move only when the test moves them (driving), as a big export does
		crm = await crmFixture({
			sandbox: { jobStepMs: 60_000, knobs: { bulkReadDownloadsPerMinute: 1000 } },
		});
	});
	afterAll(async () => {
		await crm.close();
	});

	const readNode = (parameters: Record<string, unknown> = {}, extra = {}) =>
		bulkReadNode(crm, parameters, extra);

	test('40 input items: 40 jobs, at most 5 open at a time; the node waits for a slot instead of failing', async () => {
		const before = (await bulkReadJobs(crm)).length;
		await crm.clearRequests();
		const node = readNode();
		const out = outputOf(await driving(crm, crm.run(node, items(40))), node.name);

		expect(out).toHaveLength(40);
		expect(out.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 40 }, (_, item) => ({ item })),
		);
		expect(out.every((item) => item.json.code === 'ADDED_SUCCESSFULLY')).toBe(true);
		const ids = out.map((item) => (item.json.details as { id: string }).id);
		expect(new Set(ids).size).toBe(40);
		// every job is in the CRM, one per item
		const jobs = (await bulkReadJobs(crm)).slice(before);
		expect(jobs.map((job) => job.id)).toEqual(ids);
		// the CRM refused starts beyond 5 open jobs, and the node waited for a slot
		expect(await refusedCalls(crm, 'POST', '/crm/bulk/v2.1/read')).toBeGreaterThan(0);
	});

	test('the same node with Execute Once: one job for the 40 items', async () => {
		const before = (await bulkReadJobs(crm)).length;
		const node = readNode({}, { executeOnce: true });
		const out = outputOf(await driving(crm, crm.run(node, items(40))), node.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({ code: 'ADDED_SUCCESSFULLY', details: { state: 'ADDED' } });
		expect((await bulkReadJobs(crm)).length - before).toBe(1);
	});

	// item 1 asks for Notes, which bulk read does not export (MODULE_NOT_SUPPORTED): its job cannot start
	const modules = ['Deals', 'Notes', 'Leads'].map((module) => ({ json: { module } }));
	const perItemModule = (extra = {}) =>
		readNode({ module: '={{ $json.module }}', waitForCompletion: true, output: 'binary' }, extra);

	test('a job that cannot start fails its item alone: with Continue On Fail an error item, the other items their results', async () => {
		const before = (await bulkReadJobs(crm)).length;
		const node = perItemModule({ continueOnFail: true });
		const out = outputOf(await driving(crm, crm.run(node, modules)), node.name);

		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[1].json).toMatchObject({
			error: expect.stringContaining('MODULE_NOT_SUPPORTED'),
			details: { code: 'MODULE_NOT_SUPPORTED' },
			jobs: [],
		});
		const jobs = (await bulkReadJobs(crm)).slice(before);
		expect(jobs.map((job) => [job.query.module.api_name, job.state])).toEqual([
			['Deals', 'COMPLETED'],
			['Leads', 'COMPLETED'],
		]);
		for (const [item, job] of [
			[out[0], jobs[0]],
			[out[2], jobs[1]],
		]) {
			expect(item.json).toMatchObject({ id: job.id, state: 'COMPLETED' });
			expect(item.binary?.data.mimeType).toBe('application/zip');
		}
	});

	test('without Continue On Fail the node fails after every item ran, naming each job started and its result', async () => {
		const before = (await bulkReadJobs(crm)).length;
		const node = perItemModule();
		const error = errorOf(await driving(crm, crm.run(node, modules)), node.name);

		const jobs = (await bulkReadJobs(crm)).slice(before);
		expect(jobs.map((job) => [job.query.module.api_name, job.state])).toEqual([
			['Deals', 'COMPLETED'],
			['Leads', 'COMPLETED'],
		]);
		expect(error?.message).toMatch(
			/^1 of 3 items failed \(item 1\); first, item 1: .*MODULE_NOT_SUPPORTED/,
		);
		expect(error?.context?.itemIndex).toBe(1);
		const [deals, leads] = jobs;
		expect(error?.description).toContain(
			`item 0: job ${deals.id} (COMPLETED, ${deals.result.count} records); item 2: job ${leads.id} (COMPLETED, ${leads.result.count} records)`,
		);
		expect(error?.context?.jobs).toEqual([
			{ item: 0, id: deals.id, state: 'COMPLETED', result: deals.result },
			{ item: 2, id: leads.id, state: 'COMPLETED', result: leads.result },
		]);
	});

	test('a job that cannot finish (FAILURE) fails its item alone, and its job ID reaches the output', async () => {
		const before = (await bulkReadJobs(crm)).length;
		const node = readNode({ waitForCompletion: true, output: 'binary' }, { continueOnFail: true });
		// the second job of this run ends in FAILURE
		const out = outputOf(
			await driving(crm, crm.run(node, items(3)), (_job, index) => index === before + 1),
			node.name,
		);
		const jobs = (await bulkReadJobs(crm)).slice(before);
		expect(jobs.map((job) => job.state)).toEqual(['COMPLETED', 'FAILURE', 'COMPLETED']);
		expect(out[0].json).toMatchObject({ id: jobs[0].id, state: 'COMPLETED' });
		expect(out[1].json).toMatchObject({
			error: `Bulk read job ${jobs[1].id} ended in state FAILURE`,
			jobs: [{ id: jobs[1].id, state: 'FAILURE' }],
		});
		expect(out[2].json).toMatchObject({ id: jobs[2].id, state: 'COMPLETED' });
	});
});

describe("CRM Bulk › result downloads beyond the CRM's 10 a minute", () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture({
			sandbox: { jobStepMs: 20, knobs: { bulkReadDownloadsPerMinute: 2 } },
		});
	});
	afterAll(async () => await crm.close());

	test('3 items waiting for their jobs with 2 downloads a minute: the third waits for the next minute, all 3 results come out', async () => {
		await crm.clearRequests();
		const node = bulkReadNode(crm, { waitForCompletion: true, output: 'binary' });
		const run = crm.run(node, items(3));
		// once the CRM refuses the third download, a minute passes on the sandbox's clock
		await waitFor(
			async () => (await crm.requests()).some((r) => r.url.endsWith('/result') && r.status === 429),
			{ timeout: 20_000, interval: 50, what: 'a refused download' },
		);
		await crm.hook('POST', '/clock', { advance_ms: 61_000 });
		const out = outputOf(await run, node.name);
		expect(out).toHaveLength(3);
		expect(out.every((item) => item.binary?.data.mimeType === 'application/zip')).toBe(true);
		const downloads = (await crm.requests()).filter((r) => r.url.endsWith('/result'));
		expect(downloads.filter((r) => r.status === 200)).toHaveLength(3);
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
