// CRM Bulk › Bulk Read through the n8n engine against the sandbox: Create Job (with and without
// waiting, criteria builder and JSON criteria, zip or parsed output, all pages, v2 and v2.1),
// Get Job, Download Result, limits checked before sending, and job failures.
import type { INodeExecutionData } from 'n8n-workflow';

import { csvToObjects } from '../../../nodes/shared/formats/csv';
import { readZip } from '../../../nodes/shared/formats/zip';
import { createRecord } from '../../../sandbox/records.ts';
import { bulkReadJobs, crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';
import { waitFor } from '../../harness/wait';

const FAST = {
	jobStepMs: 20,
	deliveryRetryDelaysMs: [0, 20, 40],
	knobs: { bulkReadDownloadsPerMinute: 1000 },
};
const POLL = { initialInterval: 0.02, maxInterval: 0.1, timeout: 1 };

/** Inserts records straight through the record service in one transaction (fast). */
export function insertRecords(
	crm: CrmFixture,
	moduleName: string,
	rows: Array<Record<string, unknown>>,
): string[] {
	const sandbox = crm.running.sandbox;
	const module = sandbox.module(moduleName)!;
	const user = sandbox.user();
	return sandbox.store.transaction(() =>
		rows.map((data, index) => {
			const result = createRecord(sandbox, module, data, { v: 'v2.1', user, index });
			if (!result.ok) throw new Error(JSON.stringify(result.body));
			return result.record.id;
		}),
	);
}

function zipRows(
	item: INodeExecutionData,
	property = 'data',
): { name: string; rows: Array<Record<string, string>> } {
	const bytes = Buffer.from(item.binary![property].data, 'base64');
	const [file] = readZip(bytes);
	return { name: file.name, rows: csvToObjects(file.data.toString('utf8')) };
}

describe('CRM Bulk › Bulk Read (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	let ids: string[];
	let warn: jest.SpyInstance;
	beforeAll(async () => {
		// the job with an unreachable callback URL logs CALLBACK_FAILURE after its retries
		warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
		crm = await crmFixture({ sandbox: FAST });
		ids = insertRecords(
			crm,
			'Leads',
			Array.from({ length: 30 }, (_, i) => ({
				Last_Name: `Export ${i}`,
				Company: 'Export Co',
				Lead_Source: i % 3 === 0 ? 'Web' : 'Chat',
				No_of_Employees: i,
			})),
		);
	});
	afterAll(async () => {
		await crm.close();
		warn.mockRestore();
	});

	const read = (params: Record<string, unknown>, extra = {}) =>
		crm.node(
			'crmBulk',
			{ resource: 'bulkRead', operation: 'create', module: 'Leads', polling: POLL, ...params },
			extra,
		);

	test('Create Job + wait: a zip binary whose CSV holds Id and the requested fields of the matching records', async () => {
		const node = read({
			fields: ['Last_Name', 'Lead_Source', 'Owner'],
			filterType: 'conditions',
			matchType: 'and',
			conditions: {
				condition: [
					{ field: 'Company', comparator: 'equal', value: 'Export Co' },
					{ field: 'Lead_Source', comparator: 'equal', value: 'Web' },
					{ field: 'No_of_Employees', comparator: 'between', value: '3', valueTo: '20' },
				],
			},
			waitForCompletion: true,
			output: 'binary',
			binaryPropertyName: 'export',
		});
		const out = outputOf(await crm.run(node), node.name);
		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out[0].json).toMatchObject({
			operation: 'read',
			state: 'COMPLETED',
			result: { count: 6, more_records: false, page: 1 },
		});
		// named after the module and the job's date, not the job id
		expect(out[0].json.created_time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
		expect(out[0].binary!.export).toMatchObject({
			mimeType: 'application/zip',
			fileName: `Leads-${String(out[0].json.created_time).slice(0, 10)}.zip`,
		});
		const { name, rows } = zipRows(out[0], 'export');
		expect(name).toBe(`${out[0].json.id as string}.csv`);
		expect(Object.keys(rows[0])).toEqual(['Id', 'Last_Name', 'Lead_Source', 'Owner']);
		expect(rows.map((r) => r.Id)).toEqual([3, 6, 9, 12, 15, 18].map((i) => ids[i]));
		expect(rows.every((r) => r.Lead_Source === 'Web' && /^\d{19}$/.test(r.Owner))).toBe(true);
		// the conditions went out typed (a number range)
		const job = (await crm.api('GET', `/crm/bulk/v2.1/read/${out[0].json.id}`)).body.data[0];
		expect(job.query.criteria.group[2]).toEqual({
			api_name: 'No_of_Employees',
			comparator: 'between',
			value: [3, 20],
		});
		expect(job.file_type).toBe('csv');
	});

	test('JSON criteria and parsed records: one item per CSV row, all paired with the input item', async () => {
		const node = read({
			fields: ['Last_Name', 'No_of_Employees'],
			filterType: 'json',
			criteriaJson: JSON.stringify({
				group_operator: 'and',
				group: [
					{ api_name: 'Company', comparator: 'equal', value: 'Export Co' },
					{ api_name: 'Last_Name', comparator: 'in', value: ['Export 1', 'Export 2', 'Export 29'] },
				],
			}),
			output: 'records',
		});
		const out = outputOf(await crm.run(node), node.name);
		expect(out.map((i) => i.json)).toEqual([
			{ id: ids[1], Last_Name: 'Export 1', No_of_Employees: 1 },
			{ id: ids[2], Last_Name: 'Export 2', No_of_Employees: 2 },
			{ id: ids[29], Last_Name: 'Export 29', No_of_Employees: 29 },
		]);
		expect(out.every((i) => (i.pairedItem as any).item === 0)).toBe(true);
	});

	test('Create Job without waiting, then Get Job and Download Result (zip and parsed)', async () => {
		const create = read({
			fields: ['Last_Name'],
			filterType: 'conditions',
			conditions: {
				condition: [{ field: 'Last_Name', comparator: 'starts_with', value: 'Export 2' }],
			},
			waitForCompletion: false,
			options: { callbackUrl: 'http://127.0.0.1:9/unused' },
		});
		const created = outputOf(await crm.run(create), create.name);
		expect(created[0].json).toMatchObject({
			status: 'success',
			code: 'ADDED_SUCCESSFULLY',
			details: { state: 'ADDED', operation: 'read' },
		});
		const jobId = created[0].json.id as string;
		expect(jobId).toMatch(/^\d{19}$/);
		expect((await bulkReadJobs(crm)).find((j) => j.id === jobId)?.callback).toEqual({
			url: 'http://127.0.0.1:9/unused',
			method: 'post',
		});

		const get = crm.node('crmBulk', { resource: 'bulkRead', operation: 'get', jobId });
		const job = await waitFor(async () => outputOf(await crm.run(get), get.name)[0].json as any, {
			ok: (j) => j.state === 'COMPLETED',
			interval: 20,
		});
		expect(job).toMatchObject({
			id: jobId,
			state: 'COMPLETED',
			query: { module: { api_name: 'Leads' } },
			result: { count: 11 },
		});

		const zip = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'downloadResult',
			jobId,
			output: 'binary',
			binaryPropertyName: 'file',
		});
		const zipped = outputOf(await crm.run(zip), zip.name);
		expect(zipped).toHaveLength(1);
		expect(zipped[0].json).toMatchObject({
			jobId,
			fileName: `Leads-${String(job.created_time).slice(0, 10)}.zip`,
			mimeType: 'application/zip',
		});
		expect(zipRows(zipped[0], 'file').rows).toHaveLength(11);

		const parsed = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'downloadResult',
			jobId,
			output: 'records',
		});
		const rows = outputOf(await crm.run(parsed), parsed.name);
		expect(rows.map((r) => r.json.Last_Name)).toEqual([
			'Export 2',
			...Array.from({ length: 10 }, (_, i) => `Export ${20 + i}`),
		]);
	});

	test('Read All Pages follows more_records with page + 1 jobs', async () => {
		crm.running.sandbox.config.knobs.bulkReadPageSize = 7;
		try {
			const node = read({
				fields: ['Last_Name'],
				filterType: 'conditions',
				conditions: { condition: [{ field: 'Company', comparator: 'equal', value: 'Export Co' }] },
				output: 'records',
				allPages: true,
			});
			const out = outputOf(await crm.run(node), node.name);
			expect(out.map((i) => i.json.id)).toEqual(ids);
			const pages = (await bulkReadJobs(crm))
				.filter(
					(j) =>
						JSON.stringify(j.query.criteria ?? {}).includes('Export Co') &&
						j.result?.per_page === 7,
				)
				.map((j) => j.query.page);
			expect(pages).toEqual([1, 2, 3, 4, 5]);
		} finally {
			delete crm.running.sandbox.config.knobs.bulkReadPageSize;
		}
	});

	test('two input items make two jobs, each output paired with its item', async () => {
		const node = read({
			fields: ['Last_Name'],
			filterType: 'conditions',
			conditions: {
				condition: [{ field: 'Last_Name', comparator: 'equal', value: '={{ $json.name }}' }],
			},
			output: 'records',
		});
		const out = outputOf(
			await crm.run(node, [{ json: { name: 'Export 4' } }, { json: { name: 'Export 5' } }]),
			node.name,
		);
		expect(out.map((i) => [i.json.Last_Name, (i.pairedItem as any).item])).toEqual([
			['Export 4', 0],
			['Export 5', 1],
		]);
	});

	test('ICS for Events as a zip binary', async () => {
		const node = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Events',
			options: { fileType: 'ics' },
			polling: POLL,
		});
		const out = outputOf(await crm.run(node), node.name);
		const [file] = readZip(Buffer.from(out[0].binary!.data.data, 'base64'));
		expect(file.name).toMatch(/\.ics$/);
		expect(file.data.toString('utf8')).toContain('BEGIN:VCALENDAR');
	});

	test.each([
		[
			'26 conditions',
			{
				filterType: 'conditions',
				conditions: {
					condition: Array.from({ length: 26 }, () => ({
						field: 'Last_Name',
						comparator: 'equal',
						value: 'x',
					})),
				},
			},
			/at most 25/,
		],
		[
			'51 In values',
			{
				filterType: 'conditions',
				conditions: {
					condition: [
						{
							field: 'Last_Name',
							comparator: 'in',
							value: Array.from({ length: 51 }, (_, i) => i).join(','),
						},
					],
				},
			},
			/at most 50/,
		],
		[
			'Between without To Value',
			{
				filterType: 'conditions',
				conditions: {
					condition: [{ field: 'No_of_Employees', comparator: 'between', value: '1' }],
				},
			},
			/needs Value and Value \(Upper Bound\)/,
		],
		[
			'a text for a number field',
			{
				filterType: 'conditions',
				conditions: {
					condition: [{ field: 'No_of_Employees', comparator: 'equal', value: 'many' }],
				},
			},
			/expects a number/,
		],
		['bad JSON criteria', { filterType: 'json', criteriaJson: '{nope' }, /not valid JSON/],
		[
			'ICS with parsed records',
			{ output: 'records', options: { fileType: 'ics' } },
			/needs File Type CSV/,
		],
		['page 0', { options: { page: 0 } }, /Page must be/],
	])('validation before sending: %s', async (_label, params, message) => {
		const before = (await bulkReadJobs(crm)).length;
		const node = read(params);
		const error = errorOf(await crm.run(node), node.name);
		expect(error?.message).toMatch(message);
		expect(await bulkReadJobs(crm)).toHaveLength(before);
	});

	test('CRM errors surface with their code: unknown job (404), unsupported module (400)', async () => {
		const get = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'get',
			jobId: '4876876999999999999',
		});
		const notFound = errorOf(await crm.run(get), get.name);
		// a Get by ID of a missing ID reads "No … with ID …" (test/nodes/not-found.test.ts)
		expect(notFound?.message).toBe('No bulk read job with ID 4876876999999999999');
		expect(notFound?.httpCode).toBe('404');
		const download = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'downloadResult',
			jobId: '4876876999999999999',
			output: 'binary',
			binaryPropertyName: 'data',
		});
		const dlError = errorOf(await crm.run(download), download.name);
		expect(dlError?.message).toBe(
			'Nothing found for job_id 4876876999999999999 [RESOURCE_NOT_FOUND]',
		);
		expect(dlError?.httpCode).toBe('404');
		const notes = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Notes',
			polling: POLL,
		});
		expect(errorOf(await crm.run(notes), notes.name)?.message).toBe(
			'The module cannot be used for this job [MODULE_NOT_SUPPORTED]',
		);
	});

	test('a job ending in FAILURE fails the item; with Continue On Fail it is an error item', async () => {
		const sandbox = crm.running.sandbox;
		sandbox.config.jobStepMs = 300;
		try {
			const node = read({ filterType: 'none' }, { onError: 'continueRegularOutput' });
			const known = new Set((await bulkReadJobs(crm)).map((j) => j.id));
			const run = crm.run(node);
			const jobId = await waitFor(
				async () =>
					(await bulkReadJobs(crm)).find((j) => !known.has(j.id))?.id as string | undefined,
				{ interval: 5 },
			);
			await crm.api('POST', `/__sandbox/bulk/read/${jobId}/fail`);
			const out = outputOf(await run, node.name);
			expect(out).toHaveLength(1);
			expect(out[0].json.error).toBe(`Bulk read job ${jobId} ended in state FAILURE`);
		} finally {
			sandbox.config.jobStepMs = FAST.jobStepMs;
		}
	});

	test('polling gives up after the timeout, naming the job', async () => {
		const sandbox = crm.running.sandbox;
		sandbox.config.jobStepMs = 60_000;
		try {
			const node = read({ polling: { initialInterval: 0.02, maxInterval: 0.05, timeout: 0.005 } });
			const error = errorOf(await crm.run(node), node.name);
			expect(error?.message).toMatch(/^Bulk read job \d{19} has not finished after/);
		} finally {
			sandbox.config.jobStepMs = FAST.jobStepMs;
			for (const job of (await bulkReadJobs(crm)).filter(
				(j) => j.state !== 'COMPLETED' && j.state !== 'FAILURE',
			)) {
				await crm.api('POST', `/__sandbox/bulk/read/${job.id}/fail`);
			}
		}
	});

	test('scaled-down acceptance: 2,000 records read with wait give a zip whose CSV has 2,000 rows', async () => {
		insertRecords(
			crm,
			'Contacts',
			Array.from({ length: 2000 }, (_, i) => ({
				Last_Name: `Scale ${i}`,
				Department: 'Scale Dept',
			})),
		);
		const started = Date.now();
		const node = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Contacts',
			fields: ['Last_Name', 'Department'],
			filterType: 'conditions',
			conditions: {
				condition: [{ field: 'Department', comparator: 'equal', value: 'Scale Dept' }],
			},
			polling: POLL,
		});
		const out = outputOf(await crm.run(node), node.name);
		const { rows } = zipRows(out[0]);
		expect(rows).toHaveLength(2000);
		expect(new Set(rows.map((r) => r.Id)).size).toBe(2000);
		expect(out[0].json).toMatchObject({ result: { count: 2000 } });
		expect(Date.now() - started).toBeLessThan(15_000);
	});
});

describe('CRM Bulk › Bulk Read with a v2 credential', () => {
	let crm: CrmFixture;
	beforeAll(async () => (crm = await crmFixture({ variant: 'v2', sandbox: FAST })));
	afterAll(async () => await crm.close());

	test('query.module goes out as a String and the job reads back the v2 way', async () => {
		const node = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Accounts',
			fields: ['Account_Name'],
			polling: POLL,
			output: 'records',
		});
		await crm.clearRequests();
		const out = outputOf(await crm.run(node), node.name);
		expect(out.length).toBe((await crm.listAll('/crm/v2/Accounts')).length);
		// created through the v2 root
		expect(
			(await crm.requests())
				.filter((r) => r.method === 'POST' && r.url.startsWith('/crm/bulk/'))
				.map((r) => [r.url, r.status]),
		).toEqual([['/crm/bulk/v2/read', 201]]);
		const job = (await bulkReadJobs(crm)).pop();
		const get = crm.node('crmBulk', { resource: 'bulkRead', operation: 'get', jobId: job.id });
		expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
			query: { module: 'Accounts' },
			result: { download_url: `/crm/bulk/v2/read/${job.id}/result` },
		});
	});
});
