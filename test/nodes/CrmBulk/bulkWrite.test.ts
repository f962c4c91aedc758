// CRM Bulk › Bulk Write through the n8n engine against the sandbox: Upload File (CSV packed into a
// zip by the node, or a zip as is; headers feature + X-CRM-ORG from GetOrganization), Create Job
// (from a binary or a file ID, field mappings, find_by, wait, zip or parsed result), Get Job,
// Download Result, limits checked before sending, v2 module form, failures. (The 25 MB zip limit
// is checked in test/heavy/bulk.heavy.ts: building a 25 MB binary item is slow.)
import type { INodeExecutionData } from 'n8n-workflow';

import { csvToObjects, toCsv } from '../../../nodes/shared/formats/csv';
import { createZip, readZip } from '../../../nodes/shared/formats/zip';
import { writeZip as deflateZip } from '../../../sandbox/zip.ts';
import { bulkWriteJobs, crmFixture, refusedCalls } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';
import { waitFor } from '../../harness/wait';

const FAST = { jobStepMs: 20, deliveryRetryDelaysMs: [0, 20, 40] };
const POLL = { initialInterval: 0.02, maxInterval: 0.1, timeout: 1 };
const XGID = '4876876000000000002';

function fileItem(
	data: Buffer | string,
	fileName: string,
	mimeType = 'text/csv',
	json = {},
): INodeExecutionData {
	return {
		json,
		binary: { data: { data: Buffer.from(data).toString('base64'), mimeType, fileName } },
	};
}

function resultRows(
	item: INodeExecutionData,
	property = 'data',
): { name: string; rows: Array<Record<string, string>> } {
	const [file] = readZip(Buffer.from(item.binary![property].data, 'base64'));
	return { name: file.name, rows: csvToObjects(file.data.toString('utf8')) };
}

describe('CRM Bulk › Bulk Write (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	beforeAll(async () => (crm = await crmFixture({ sandbox: FAST })));
	afterAll(async () => await crm.close());

	const record = async (module: string, id: string) =>
		(await crm.api('GET', `/crm/v2.1/${module}/${id}`)).body?.data?.[0];
	const count = async (module: string) =>
		(await crm.api('GET', `/crm/v2.1/${module}/actions/count`)).body.count as number;
	const uploadNode = () =>
		crm.node('crmBulk', {
			resource: 'bulkWrite',
			operation: 'uploadFile',
			binaryPropertyName: 'data',
			fileFormat: 'auto',
		});

	const write = (params: Record<string, unknown>, extra = {}) =>
		crm.node(
			'crmBulk',
			{ resource: 'bulkWrite', operation: 'create', module: 'Leads', polling: POLL, ...params },
			extra,
		);

	test('Upload File: a CSV is packed into a zip and sent with feature + X-CRM-ORG (GetOrganization once per execution)', async () => {
		await crm.clearRequests();
		const node = uploadNode();
		const out = outputOf(
			await crm.run(node, [
				fileItem('Last_Name,Email\r\nUp,up@x.example\r\n', 'people.csv'),
				fileItem('Last_Name\nOther\nThird\n', 'other.csv'),
			]),
			node.name,
		);
		expect(out).toHaveLength(2);
		expect(out[0].json).toMatchObject({
			code: 'FILE_UPLOAD_SUCCESS',
			status: 'success',
			fileName: 'people.zip',
			records: 1,
		});
		expect(out[1].json.records).toBe(2);
		const fileId = out[0].json.file_id as string;
		expect(fileId).toMatch(/^\d{19}$/);
		const stored = await crm.download(`/__sandbox/bulk/write/files/${fileId}`);
		expect(stored.headers.get('content-disposition')).toContain('filename="people.csv"');
		const [entry] = readZip(stored.bytes);
		expect(entry.data.toString()).toBe('Last_Name,Email\r\nUp,up@x.example\r\n');
		const made = (await crm.requests()).map((r) => `${r.host} ${r.method} ${r.url} ${r.status}`);
		expect(made.filter((r) => r.startsWith('api GET /crm/v2.1/org'))).toHaveLength(1);
		// the upload goes to the credential's upload host, never to the API origin (§1.1)
		expect(crm.credentialData.uploadUrl).toBe(crm.running.uploadUrl);
		expect(crm.running.uploadUrl).not.toBe(crm.url);
		expect(made.filter((r) => r.includes('/upload'))).toEqual([
			'upload POST /crm/v2.1/upload 200',
			'upload POST /crm/v2.1/upload 200',
		]);
	});

	test('Upload File with a sandbox credential: the Sandbox Upload URL is the upload host', async () => {
		const saved = { ...crm.helper.store.crmOAuth2Api };
		try {
			crm.helper.store.crmOAuth2Api = {
				...saved,
				uploadUrl: '',
				environment: 'sandbox',
				sandboxUrl: crm.url,
				sandboxUploadUrl: crm.running.uploadUrl,
			};
			await crm.clearRequests();
			const node = uploadNode();
			const out = outputOf(
				await crm.run(node, [fileItem('Last_Name\nSandboxed\n', 'sandboxed.csv')]),
				node.name,
			);
			expect(out[0].json).toMatchObject({ code: 'FILE_UPLOAD_SUCCESS', records: 1 });
			expect(
				(await crm.requests())
					.filter((r) => r.url.includes('/upload'))
					.map((r) => `${r.host} ${r.status}`),
			).toEqual(['upload 200']);
		} finally {
			crm.helper.store.crmOAuth2Api = saved;
		}
	});

	test('Upload File with a CRM Service credential without Upload URL fails before anything is sent, naming the field and the hosts', async () => {
		const saved = crm.helper.store.crmOAuth2Api;
		try {
			crm.helper.store.crmOAuth2Api = { ...saved, environment: 'service', uploadUrl: '' };
			await crm.clearRequests();
			const node = uploadNode();
			const error = errorOf(
				await crm.run(node, [fileItem('Last_Name\nNowhere\n', 'nowhere.csv')]),
				node.name,
			);
			expect(error?.message).toBe(
				`The credential "CRM sandbox" has no Upload URL: Bulk Write uploads its files to the content host of your account's data centre`,
			);
			expect(error?.description).toContain('https://content.crm.example');
			expect(error?.description).toContain('https://content.eu.crm.example');
			// nothing went to the API address (which answers an upload 404 INVALID_URL_PATTERN, §1.1)
			expect((await crm.requests()).filter((r) => r.url.includes('/upload'))).toEqual([]);
		} finally {
			crm.helper.store.crmOAuth2Api = saved;
		}
	});

	test('Upload File: a zip (DEFLATE, from elsewhere) goes up as is', async () => {
		const zip = deflateZip([
			{
				name: 'Leads.csv',
				data: Buffer.from(
					toCsv([['Last_Name'], ...Array.from({ length: 50 }, (_, i) => [`Z${i}`])]),
				),
			},
		]);
		const node = uploadNode();
		const out = outputOf(
			await crm.run(node, [fileItem(zip, 'leads.zip', 'application/zip')]),
			node.name,
		);
		expect(out[0].json).toMatchObject({ fileName: 'leads.zip', records: 50 });
		expect(
			(await crm.download(`/__sandbox/bulk/write/files/${out[0].json.file_id}`)).bytes.equals(zip),
		).toBe(true);
	});

	test('Create Job from a binary CSV with field mappings: waits and answers the result zip; records are written', async () => {
		const csv = toCsv([
			['Surname', 'Mail', 'Source', 'Since'],
			['Imp-1', 'imp1@import.example', 'Web', '03/28/2024'],
			['Imp-2', 'imp2@import.example', '', '28.03.2024'],
			['', 'nobody@import.example', 'Web', ''],
		]);
		const node = write({
			writeOperation: 'insert',
			source: 'binary',
			binaryPropertyName: 'data',
			mappingMode: 'mappings',
			fieldMappings: {
				mapping: [
					{ apiName: 'Last_Name', index: 0 },
					{ apiName: 'Email', index: 1 },
					{ apiName: 'Lead_Source', index: 2, defaultValue: 'Trade Show' },
					{ apiName: 'Last_Contacted_Date', index: 3, format: 'MM/dd/yyyy' },
				],
			},
			waitForCompletion: true,
			output: 'binary',
			resultBinaryPropertyName: 'result',
		});
		const out = outputOf(await crm.run(node, [fileItem(csv, 'import.csv')]), node.name);
		expect(out).toHaveLength(1);
		const job = out[0].json as any;
		expect(job).toMatchObject({
			operation: 'insert',
			status: 'COMPLETED',
			resource: [
				{
					status: 'COMPLETED',
					file: { name: 'import.csv', added_count: 1, skipped_count: 2, total_count: 3 },
				},
			],
			result: { download_url: `${crm.url}/v2/crm/${XGID}/bulk-write/${job.id}/${job.id}.zip` },
		});
		expect(job.resource[0].field_mappings[2]).toEqual({
			api_name: 'Lead_Source',
			index: 2,
			format: null,
			find_by: null,
			default_value: { value: 'Trade Show' },
		});
		expect(out[0].binary!.result).toMatchObject({
			fileName: `${job.id}.zip`,
			mimeType: 'application/zip',
		});
		const { name, rows } = resultRows(out[0], 'result');
		expect(name).toBe('import.csv');
		expect(rows.map((r) => [r.Surname, r.STATUS, r.ERRORS])).toEqual([
			['Imp-1', 'ADDED', ''],
			['Imp-2', 'SKIPPED', 'INVALID_DATA-Last_Contacted_Date'],
			['', 'SKIPPED', 'MANDATORY_NOT_FOUND-Last_Name'],
		]);
		expect(await record('Leads', rows[0].RECORD_ID)).toMatchObject({
			Last_Name: 'Imp-1',
			Email: 'imp1@import.example',
			Lead_Source: 'Web',
			Last_Contacted_Date: '2024-03-28',
		});
	});

	test('upsert by Email with header names, parsed result records', async () => {
		const node = write({
			writeOperation: 'upsert',
			findBy: 'Email',
			source: 'binary',
			binaryPropertyName: 'data',
			mappingMode: 'header',
			output: 'records',
		});
		const existing = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [{ Last_Name: 'Ups-1', Email: 'ups1@import.example' }],
		});
		const existingId = existing.body.data[0].details.id;
		const csv =
			'Last_Name,Email,Company\nImp-1b,UPS1@import.example,Upserted\nImp-9,imp9@import.example,Fresh\n';
		const out = outputOf(await crm.run(node, [fileItem(csv, 'upsert.csv')]), node.name);
		expect(out.map((i) => [i.json.Last_Name, i.json.STATUS])).toEqual([
			['Imp-1b', 'UPDATED'],
			['Imp-9', 'ADDED'],
		]);
		expect(out[0].json.RECORD_ID).toBe(existingId);
		expect(await record('Leads', existingId)).toMatchObject({
			Last_Name: 'Imp-1b',
			Company: 'Upserted',
			Email: 'UPS1@import.example',
		});
	});

	test('Create Job from a file ID without waiting, then Get Job and Download Result', async () => {
		const upload = crm.node('crmBulk', {
			resource: 'bulkWrite',
			operation: 'uploadFile',
			binaryPropertyName: 'data',
			fileFormat: 'csv',
		});
		const fileId = outputOf(
			await crm.run(upload, [
				fileItem(
					'Last_Name,Company\nLater-1,Later Co\nLater-2,Later Co\n',
					'later.txt',
					'text/plain',
				),
			]),
			upload.name,
		)[0].json.file_id as string;
		const create = write({
			writeOperation: 'insert',
			source: 'fileId',
			fileId,
			waitForCompletion: false,
			options: { ignoreEmpty: true },
		});
		const created = outputOf(await crm.run(create), create.name);
		expect(created[0].json).toMatchObject({
			status: 'success',
			code: 'SUCCESS',
			message: 'success',
			file_id: fileId,
		});
		const jobId = created[0].json.id as string;
		expect((await crm.api('GET', `/crm/bulk/v2.1/write/${jobId}`)).body.resource[0]).toMatchObject({
			ignore_empty: true,
			file: { name: 'later.csv' },
		});

		const get = crm.node('crmBulk', { resource: 'bulkWrite', operation: 'get', jobId });
		const job = await waitFor(async () => outputOf(await crm.run(get), get.name)[0].json as any, {
			ok: (j) => j.status === 'COMPLETED',
			interval: 20,
		});
		expect(job).toMatchObject({
			id: jobId,
			status: 'COMPLETED',
			resource: [{ module: { api_name: 'Leads' }, file: { added_count: 2 } }],
		});

		const download = crm.node('crmBulk', {
			resource: 'bulkWrite',
			operation: 'downloadResult',
			jobId,
			output: 'records',
		});
		const rows = outputOf(await crm.run(download), download.name);
		expect(rows.map((r) => [r.json.Last_Name, r.json.STATUS])).toEqual([
			['Later-1', 'ADDED'],
			['Later-2', 'ADDED'],
		]);
		const zipped = crm.node('crmBulk', {
			resource: 'bulkWrite',
			operation: 'downloadResult',
			jobId,
			output: 'binary',
			binaryPropertyName: 'file',
		});
		const zip = outputOf(await crm.run(zipped), zipped.name);
		expect(resultRows(zip[0], 'file').rows).toHaveLength(2);
		expect(zip[0].json).toMatchObject({ id: jobId, status: 'COMPLETED' });
	});

	test('update by id: unknown ids are skipped with RESOURCE_NOT_FOUND', async () => {
		const insert = write({
			writeOperation: 'insert',
			source: 'binary',
			binaryPropertyName: 'data',
			output: 'records',
		});
		const [id] = outputOf(
			await crm.run(insert, [fileItem('Last_Name\nUpd-1\n', 'a.csv')]),
			insert.name,
		).map((i) => i.json.RECORD_ID as string);
		const node = write({
			writeOperation: 'update',
			findBy: 'id',
			source: 'binary',
			binaryPropertyName: 'data',
			output: 'records',
		});
		const out = outputOf(
			await crm.run(node, [
				fileItem(`Id,Company\n${id},Updated Co\n4876876999999999999,Nope\n`, 'u.csv'),
			]),
			node.name,
		);
		expect(out.map((i) => [i.json.STATUS, i.json.ERRORS])).toEqual([
			['UPDATED', ''],
			['SKIPPED', 'RESOURCE_NOT_FOUND-id'],
		]);
		expect(await record('Leads', id)).toMatchObject({ Company: 'Updated Co' });
	});

	test.each([
		[
			'a CSV over 25,000 records',
			() =>
				fileItem(
					toCsv([['Last_Name'], ...Array.from({ length: 25_001 }, (_, i) => [`R${i}`])]),
					'big.csv',
				),
			{},
			/The CSV has 25,001 records; bulk write accepts at most 25,000 per file/,
		],
		[
			'a zip with two files',
			() =>
				fileItem(
					createZip([
						{ name: 'a.csv', data: Buffer.from('A\n1\n') },
						{ name: 'b.csv', data: Buffer.from('A\n1\n') },
					]),
					'two.zip',
					'application/zip',
				),
			{},
			/exactly one CSV file/,
		],
		[
			'a non-zip declared as zip',
			() => fileItem('Last_Name\nx\n', 'x.zip', 'application/zip'),
			{ fileFormat: 'zip' },
			/not a readable zip/,
		],
		[
			'201 field mappings',
			() => fileItem('Last_Name\nx\n', 'x.csv'),
			{
				mappingMode: 'mappings',
				fieldMappings: {
					mapping: Array.from({ length: 201 }, (_, i) => ({ apiName: `F${i}`, index: i })),
				},
			},
			/at most 200 mapped fields/,
		],
		[
			'update without Find By',
			() => fileItem('Last_Name\nx\n', 'x.csv'),
			{ writeOperation: 'update', findBy: '={{ "" }}' },
			/Find By is required/,
		],
		[
			'a bad callback URL',
			() => fileItem('Last_Name\nx\n', 'x.csv'),
			{ options: { callbackUrl: 'not-a-url' } },
			/Callback URL must be/,
		],
	])('validation before anything is sent: %s', async (_label, item, params, message) => {
		await crm.clearRequests();
		const node = write({
			writeOperation: 'insert',
			source: 'binary',
			binaryPropertyName: 'data',
			fileFormat: 'auto',
			...params,
		});
		const error = errorOf(await crm.run(node, [item()]), node.name);
		expect(error?.message).toMatch(message);
		expect(
			(await crm.requests()).filter((r) => r.url.includes('/upload') || r.url.includes('/write')),
		).toEqual([]);
	});

	test('CRM errors of the create call surface with their code (MANDATORY_FIELDS_NOT_MAPPED)', async () => {
		const node = write({
			writeOperation: 'insert',
			source: 'binary',
			binaryPropertyName: 'data',
			mappingMode: 'mappings',
			fieldMappings: { mapping: [{ apiName: 'Email', index: 0 }] },
		});
		const error = errorOf(
			await crm.run(node, [fileItem('Email\na@b.example\n', 'x.csv')]),
			node.name,
		);
		expect(error?.message).toBe(
			'Required field Last_Name is not mapped to a column [MANDATORY_FIELDS_NOT_MAPPED]',
		);
		expect(error?.httpCode).toBe('400');
	});

	test('a job ending FAILED fails the item (error item with Continue On Fail)', async () => {
		const sandbox = crm.running.sandbox;
		sandbox.config.jobStepMs = 300;
		try {
			const known = new Set((await bulkWriteJobs(crm)).map((j) => j.id));
			const node = write(
				{ writeOperation: 'insert', source: 'binary', binaryPropertyName: 'data' },
				{ onError: 'continueRegularOutput' },
			);
			const run = crm.run(node, [fileItem('Last_Name\nFail-1\n', 'f.csv')]);
			const jobId = await waitFor(
				async () =>
					(await bulkWriteJobs(crm)).find((j) => !known.has(j.id))?.id as string | undefined,
				{ interval: 5 },
			);
			await crm.api('POST', `/__sandbox/bulk/write/${jobId}/fail`);
			const out = outputOf(await run, node.name);
			expect(out[0].json.error).toBe(`Bulk write job ${jobId} ended in status FAILED`);
		} finally {
			sandbox.config.jobStepMs = FAST.jobStepMs;
		}
	});

	test('scaled-down acceptance: a 2,000-row CSV inserts 2,000 records and the result file reports them', async () => {
		const before = await count('Contacts');
		// no unique-field values: the sandbox's duplicate check scans the module per row (keeps this fast)
		const csv = toCsv([
			['Last_Name', 'Department', 'Title'],
			...Array.from({ length: 2000 }, (_, i) => [`Bulk ${i}`, 'Imported', `Title ${i % 10}`]),
		]);
		const node = write({
			module: 'Contacts',
			writeOperation: 'insert',
			source: 'binary',
			binaryPropertyName: 'data',
			output: 'binary',
			resultBinaryPropertyName: 'data',
		});
		const started = Date.now();
		const out = outputOf(await crm.run(node, [fileItem(csv, 'contacts.csv')]), node.name);
		expect(out[0].json).toMatchObject({
			status: 'COMPLETED',
			resource: [{ file: { added_count: 2000, skipped_count: 0, total_count: 2000 } }],
		});
		const { rows } = resultRows(out[0]);
		expect(rows).toHaveLength(2000);
		expect(rows.every((r) => r.STATUS === 'ADDED' && /^\d{19}$/.test(r.RECORD_ID))).toBe(true);
		expect(await count('Contacts')).toBe(before + 2000);
		expect(Date.now() - started).toBeLessThan(20_000);
	});
});

describe('CRM Bulk › Bulk Write with a v2 credential', () => {
	let crm: CrmFixture;
	beforeAll(async () => (crm = await crmFixture({ variant: 'v2', sandbox: FAST })));
	afterAll(async () => await crm.close());

	test('resource[].module goes out as a String; the upload uses /crm/v2/upload', async () => {
		const node = crm.node('crmBulk', {
			resource: 'bulkWrite',
			operation: 'create',
			writeOperation: 'insert',
			module: 'Accounts',
			source: 'binary',
			binaryPropertyName: 'data',
			polling: POLL,
			output: 'records',
		});
		await crm.clearRequests();
		const out = outputOf(
			await crm.run(node, [fileItem('Account_Name\nV2 Account\n', 'accounts.csv')]),
			node.name,
		);
		expect(out[0].json).toMatchObject({ Account_Name: 'V2 Account', STATUS: 'ADDED' });
		// created through the v2 root
		expect(
			(await crm.requests())
				.filter((r) => r.method === 'POST' && r.url.startsWith('/crm/bulk/'))
				.map((r) => [r.url, r.status]),
		).toEqual([['/crm/bulk/v2/write', 201]]);
		const job = (await bulkWriteJobs(crm)).pop();
		expect(
			(await crm.requests()).some(
				(r) => r.method === 'POST' && r.url === '/crm/v2/upload' && r.host === 'upload',
			),
		).toBe(true);
		const get = crm.node('crmBulk', { resource: 'bulkWrite', operation: 'get', jobId: job.id });
		expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
			resource: [{ module: 'Accounts' }],
		});
	});
});

describe("CRM Bulk › Bulk Write jobs beyond the CRM's open-job limit", () => {
	let crm: CrmFixture;
	beforeAll(
		async () =>
			// a job stays open for a few 300 ms steps: the next item's start finds it open
			(crm = await crmFixture({
				sandbox: { ...FAST, jobStepMs: 300, knobs: { bulkWriteConcurrency: 1 } },
			})),
	);
	afterAll(async () => await crm.close());

	test('3 items, one open job allowed: each job waits for a slot, all 3 start and write their records', async () => {
		await crm.clearRequests();
		const node = crm.node('crmBulk', {
			resource: 'bulkWrite',
			operation: 'create',
			module: 'Leads',
			writeOperation: 'insert',
			source: 'binary',
			binaryPropertyName: 'data',
			waitForCompletion: false,
			polling: POLL,
		});
		const input = [1, 2, 3].map((n) =>
			fileItem(`Last_Name,Company\nSlot-${n},Slot Co\n`, `slot-${n}.csv`),
		);
		const out = outputOf(await crm.run(node, input), node.name);
		expect(out.map((item) => [item.json.code, item.pairedItem])).toEqual([
			['SUCCESS', { item: 0 }],
			['SUCCESS', { item: 1 }],
			['SUCCESS', { item: 2 }],
		]);
		const ids = out.map((item) => item.json.id as string);
		expect((await bulkWriteJobs(crm)).map((job) => job.id)).toEqual(ids);
		// the CRM refused a start while a job was open, and the node waited
		expect(await refusedCalls(crm, 'POST', '/crm/bulk/v2.1/write')).toBeGreaterThan(0);
		const jobs = await waitFor(async () => await bulkWriteJobs(crm), {
			ok: (all) => all.every((job: { status: string }) => job.status === 'COMPLETED'),
			timeout: 10_000,
			interval: 50,
			what: 'the 3 jobs completed',
		});
		expect(jobs.map((job: any) => job.resource[0].file.added_count)).toEqual([1, 1, 1]);
	});
});
