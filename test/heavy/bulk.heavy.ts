// Heavy acceptance tests of CRM Bulk (issue 7), run with `npm run test:heavy` (not part of `npm test`):
// - a bulk read of 50,000 sandbox records with "Wait for Completion" answers a zip whose CSV has 50,000 rows;
// - a bulk write of a 10,000-row CSV inserts 10,000 records and the result file reports them;
// - the 25 MB zip limit is refused before anything is sent.
import type { INodeExecutionData } from 'n8n-workflow';

import { csvToObjects, toCsv } from '../../nodes/shared/formats/csv';
import { createZip, readZip } from '../../nodes/shared/formats/zip';
import { createRecord } from '../../sandbox/records.ts';
import { crmFixture } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { errorOf, outputOf } from '../harness/n8n';

jest.setTimeout(600_000);

const POLL = { initialInterval: 0.05, maxInterval: 0.5, timeout: 10 };

function csvOfZipItem(
	item: INodeExecutionData,
	property = 'data',
): { name: string; rows: Array<Record<string, string>> } {
	const [file] = readZip(Buffer.from(item.binary![property].data, 'base64'));
	return { name: file.name, rows: csvToObjects(file.data.toString('utf8')) };
}

describe('CRM Bulk heavy acceptance', () => {
	let crm: CrmFixture;
	beforeAll(
		async () =>
			(crm = await crmFixture({ sandbox: { jobStepMs: 20, deliveryRetryDelaysMs: [0, 20, 40] } })),
	);
	afterAll(async () => await crm.close());

	test('bulk read of 50,000 records with wait for completion: the zip CSV has 50,000 rows', async () => {
		const sandbox = crm.running.sandbox;
		const module = sandbox.module('Leads')!;
		const user = sandbox.user();
		let t = Date.now();
		const ids = sandbox.store.transaction(() =>
			Array.from({ length: 50_000 }, (_, i) => {
				const result = createRecord(
					sandbox,
					module,
					{ Last_Name: `Heavy ${i}`, Company: 'Heavy Read Co', No_of_Employees: i },
					{ v: 'v2.1', user, index: i },
				);
				if (!result.ok) throw new Error(JSON.stringify(result.body));
				return result.record.id;
			}),
		);
		console.log(`inserted 50,000 leads in ${Date.now() - t} ms`);

		t = Date.now();
		const node = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Leads',
			fields: ['Last_Name', 'Company', 'No_of_Employees'],
			filterType: 'conditions',
			conditions: {
				condition: [{ field: 'Company', comparator: 'equal', value: 'Heavy Read Co' }],
			},
			waitForCompletion: true,
			output: 'binary',
			binaryPropertyName: 'data',
			polling: POLL,
		});
		const out = outputOf(await crm.run(node), node.name);
		console.log(`bulk read of 50,000 records (create, poll, download) in ${Date.now() - t} ms`);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			state: 'COMPLETED',
			result: { count: 50_000, more_records: false, per_page: 200_000 },
		});
		const { name, rows } = csvOfZipItem(out[0]);
		expect(name).toBe(`${out[0].json.id as string}.csv`);
		expect(rows).toHaveLength(50_000);
		expect(Object.keys(rows[0])).toEqual(['Id', 'Last_Name', 'Company', 'No_of_Employees']);
		expect(rows.map((r) => r.Id)).toEqual(ids);
		expect(rows[49_999]).toEqual({
			Id: ids[49_999],
			Last_Name: 'Heavy 49999',
			Company: 'Heavy Read Co',
			No_of_Employees: '49999',
		});
	});

	test('bulk write of a 10,000-row CSV inserts 10,000 records and the result file reports them', async () => {
		const count = async () =>
			(await crm.api('GET', '/crm/v2.1/Contacts/actions/count')).body.count as number;
		const before = await count();
		const csv = toCsv([
			['Last_Name', 'First_Name', 'Department', 'Title'],
			...Array.from({ length: 10_000 }, (_, i) => [
				`Import ${i}`,
				`First ${i}`,
				'Heavy Import',
				`Title ${i % 25}`,
			]),
		]);
		const t = Date.now();
		const node = crm.node('crmBulk', {
			resource: 'bulkWrite',
			operation: 'create',
			writeOperation: 'insert',
			module: 'Contacts',
			source: 'binary',
			binaryPropertyName: 'data',
			fileFormat: 'csv',
			mappingMode: 'header',
			waitForCompletion: true,
			output: 'binary',
			resultBinaryPropertyName: 'result',
			polling: POLL,
		});
		const input: INodeExecutionData = {
			json: {},
			binary: {
				data: {
					data: Buffer.from(csv).toString('base64'),
					mimeType: 'text/csv',
					fileName: 'contacts.csv',
				},
			},
		};
		const out = outputOf(await crm.run(node, [input]), node.name);
		console.log(
			`bulk write of 10,000 rows (pack, upload, create, poll, download) in ${Date.now() - t} ms`,
		);
		expect(out[0].json).toMatchObject({
			status: 'COMPLETED',
			resource: [
				{
					status: 'COMPLETED',
					file: {
						name: 'contacts.csv',
						added_count: 10_000,
						updated_count: 0,
						skipped_count: 0,
						total_count: 10_000,
					},
				},
			],
		});
		const { name, rows } = csvOfZipItem(out[0], 'result');
		expect(name).toBe('contacts.csv');
		expect(rows).toHaveLength(10_000);
		expect(
			rows.every((r) => r.STATUS === 'ADDED' && /^\d{19}$/.test(r.RECORD_ID) && r.ERRORS === ''),
		).toBe(true);
		expect(new Set(rows.map((r) => r.RECORD_ID)).size).toBe(10_000);
		expect(await count()).toBe(before + 10_000);
		expect(
			(await crm.api('GET', `/crm/v2.1/Contacts/${rows[9_999].RECORD_ID}`)).body.data[0],
		).toMatchObject({
			Last_Name: 'Import 9999',
			First_Name: 'First 9999',
			Department: 'Heavy Import',
		});
	});

	test('a zip over 25 MB is refused before anything is sent', async () => {
		await crm.clearRequests();
		const zip = createZip([{ name: 'big.csv', data: Buffer.alloc(25 * 1024 * 1024 + 1, 0x41) }]);
		const node = crm.node('crmBulk', {
			resource: 'bulkWrite',
			operation: 'uploadFile',
			binaryPropertyName: 'data',
			fileFormat: 'auto',
		});
		const error = errorOf(
			await crm.run(node, [
				{
					json: {},
					binary: {
						data: {
							data: zip.toString('base64'),
							mimeType: 'application/zip',
							fileName: 'big.zip',
						},
					},
				},
			]),
			node.name,
		);
		expect(error?.message).toMatch(
			/The zip "big.zip" is 25.0 MB; bulk write accepts at most 25 MB/,
		);
		expect((await crm.requests()).filter((r) => r.url.includes('/upload'))).toEqual([]);
	});
});
