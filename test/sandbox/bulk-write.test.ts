// Contract tests of bulk write (docs/protocol.md §1.2, §4, §5.11, §6, §8.2, §10.2, §10.3, §11.4) over HTTP.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { parseCsv } from '../../sandbox/csv.ts';
import { readZip, writeZip } from '../../sandbox/zip.ts';
import { useContractFixture, withSandboxConfig } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';
import { waitFor } from '../harness/wait.ts';

const XGID = '4876876000000000002';
const sb = useContractFixture({
	scope: 'CRM.bulk.ALL,CRM.files.ALL,CRM.modules.ALL',
	sandbox: { jobStepMs: 10, deliveryRetryDelaysMs: [0, 20, 40] },
});

const withConfig = (
	change: { jobStepMs?: number; knobs?: Record<string, unknown> },
	fn: () => Promise<void>,
) => withSandboxConfig(sb, change, fn);

const zipOf = (csv: string, name = 'Leads.csv') =>
	writeZip([{ name, data: Buffer.from(csv, 'utf8') }]);

async function upload(
	data: Buffer | string,
	options: {
		headers?: Record<string, string>;
		tok?: string;
		name?: string;
		v?: string;
		parts?: number;
	} = {},
): Promise<{ status: number; body: any }> {
	const form = new FormData();
	for (let i = 0; i < (options.parts ?? 1); i++)
		form.append(
			'file',
			new Blob([typeof data === 'string' ? data : new Uint8Array(data)]),
			options.name ?? 'upload.zip',
		);
	const headers: Record<string, string> = {
		Authorization: `Bearer ${options.tok ?? sb.token}`,
		feature: 'bulk-write',
		'X-CRM-ORG': XGID,
	};
	for (const [k, v] of Object.entries(options.headers ?? {})) {
		if (v === '') delete headers[k];
		else headers[k] = v;
	}
	const res = await fetch(`${sb.uploadUrl}/crm/${options.v ?? 'v2.1'}/upload`, {
		method: 'POST',
		headers,
		body: form,
	});
	return { status: res.status, body: JSON.parse(await res.text()) };
}

async function uploadCsv(csv: string, name = 'Leads.csv'): Promise<string> {
	const res = await upload(zipOf(csv, name));
	expect(res.status).toBe(200);
	return res.body.details.file_id;
}

const createJob = async (body: unknown, v = 'v2.1', tok = sb.token) =>
	await api(`${sb.url}/crm/bulk/${v}/write`, tok, { method: 'POST', body });
const jobDetails = async (id: string, v = 'v2.1') =>
	await api(`${sb.url}/crm/bulk/${v}/write/${id}`, sb.token);

/** A record as GetRecord answers it. */
async function getRecord(module: string, id: string): Promise<any> {
	const res = await api(`${sb.url}/crm/v2.1/${module}/${id}`, sb.token);
	expect(res.status).toBe(200);
	return res.body.data[0];
}

async function waitJob(id: string, v = 'v2.1'): Promise<any> {
	return await waitFor(
		async () => {
			const res = await jobDetails(id, v);
			expect(res.status).toBe(200);
			return res.body;
		},
		{
			ok: (job) => job.status === 'COMPLETED' || job.status === 'FAILED',
			timeout: 10_000,
			what: `job ${id} finished`,
		},
	);
}

async function resultCsv(job: any): Promise<{ name: string; rows: string[][] }> {
	const res = await fetch(job.result.download_url, {
		headers: { Authorization: `Bearer ${sb.token}` },
	});
	expect(res.status).toBe(200);
	expect(res.headers.get('content-type')).toBe('application/zip');
	const entries = readZip(Buffer.from(await res.arrayBuffer()));
	expect(entries).toHaveLength(1);
	return { name: entries[0].name, rows: parseCsv(entries[0].data.toString('utf8')) };
}

const leadsResource = (fileId: string, extra: Record<string, unknown> = {}) => ({
	type: 'data',
	module: { api_name: 'Leads' },
	file_id: fileId,
	...extra,
});

describe('UploadFile', () => {
	test('stores a zip holding one CSV: bare FILE_UPLOAD_SUCCESS item', async () => {
		const res = await upload(zipOf('Last_Name,Email\r\nA,a@x.example\r\n'));
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			status: 'success',
			code: 'FILE_UPLOAD_SUCCESS',
			message: 'file uploaded.',
		});
		expect(res.body.details.file_id).toMatch(/^\d{19}$/);
		expect(res.body.details.created_time).toMatch(/\+00:00$/);
	});

	test('errors use the combined bulk-write shape (§11.4)', async () => {
		const res = await upload('Last_Name\nA\n', { name: 'plain.csv' });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			status: 'error',
			code: 'INVALID_FILE_FORMAT',
			message: 'invalid file format, only zip is supported',
			details: {},
			'x-error': 'INVALID_FILE_FORMAT',
			http_status: '400',
			ERROR_CODE: 400,
			ERROR_MESSAGE: 'invalid file format, only zip is supported',
		});
	});

	test.each([
		['no X-CRM-ORG', 'MANDATORY_NOT_FOUND', { 'X-CRM-ORG': '' }, 'X-CRM-ORG'],
		['no feature', 'MANDATORY_NOT_FOUND', { feature: '' }, 'feature'],
		['wrong org', 'INVALID_DATA', { 'X-CRM-ORG': '123' }, 'X-CRM-ORG'],
		['wrong feature', 'INVALID_DATA', { feature: 'bulk-read' }, 'feature'],
	])('header check, %s: 400 %s', async (_label, code, headers, apiName) => {
		const res = await upload(zipOf('Last_Name\nA\n'), { headers });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({
			code,
			'x-error': code,
			details: { api_name: apiName },
			ERROR_CODE: 400,
		});
	});

	test('limits: size, rows, header columns; one CSV per zip; one file part', async () => {
		await withConfig(
			{ knobs: { bulkWriteMaxZipBytes: 200, bulkWriteMaxRows: 3, bulkWriteMaxColumns: 3 } },
			async () => {
				const big = await upload(
					writeZip([
						{
							name: 'x.csv',
							data: Buffer.from(Array.from({ length: 400 }, (_, i) => `r${i * 7919}`).join('\n')),
						},
					]),
				);
				expect(big.body).toMatchObject({
					code: 'FILE_TOO_LARGE',
					ERROR_MESSAGE: 'file size too large',
				});
				const rows = await upload(zipOf('Last_Name\na\nb\nc\nd\n'));
				expect(rows.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 3 } });
				const columns = await upload(zipOf('A,B,C,D\n1,2,3,4\n'));
				expect(columns.body).toMatchObject({
					code: 'HEADER_LIMIT_EXCEEDED',
					details: { limit: 3 },
				});
				expect((await upload(zipOf('Last_Name\na\nb\nc\n'))).status).toBe(200);
			},
		);
		const two = await upload(
			writeZip([
				{ name: 'a.csv', data: Buffer.from('A\n1\n') },
				{ name: 'b.csv', data: Buffer.from('A\n1\n') },
			]),
		);
		expect(two.body.code).toBe('FILE_NOT_SUPPORTED');
		const notCsv = await upload(writeZip([{ name: 'a.txt', data: Buffer.from('A\n1\n') }]));
		expect(notCsv.body.code).toBe('FILE_NOT_SUPPORTED');
		const parts = await upload(zipOf('Last_Name\na\n'), { parts: 2 });
		expect(parts.body.code).toBe('LIMIT_EXCEEDED');
		const unclosed = await upload(zipOf('Last_Name,Email\n"never closed,a@example.com\n'));
		expect(unclosed.status).toBe(400);
		expect(unclosed.body).toMatchObject({ code: 'INVALID_FORMAT', 'x-error': 'INVALID_FORMAT' });
		const none = await fetch(`${sb.uploadUrl}/crm/v2.1/upload`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${sb.token}`, feature: 'bulk-write', 'X-CRM-ORG': XGID },
			body: new FormData(),
		});
		expect(await none.json()).toMatchObject({
			code: 'INVALID_DATA',
			message: 'the request does not contain any file',
			'x-error': 'INVALID_DATA',
		});
	});

	test('either CRM.bulk.ALL or CRM.files.ALL is enough; v2 serves the same route', async () => {
		for (const scope of ['CRM.bulk.ALL', 'CRM.files.ALL']) {
			const tok = (await grantToken(sb.url, { scope })).access_token;
			expect((await upload(zipOf('Last_Name\na\n'), { tok })).status).toBe(200);
		}
		const other = (await grantToken(sb.url, { scope: 'CRM.modules.ALL' })).access_token;
		expect((await upload(zipOf('Last_Name\na\n'), { tok: other })).body.code).toBe(
			'OAUTH_SCOPE_MISMATCH',
		);
		expect((await upload(zipOf('Last_Name\na\n'), { v: 'v2' })).status).toBe(200);
	});
});

describe('CreateBulkWriteJob → GetBulkWriteJobDetails → DownloadBulkWriteResult', () => {
	test('insert with field mappings: ADDED → IN PROGRESS → COMPLETED, records written, result file reports them', async () => {
		const csv = [
			'Surname,Mail,Source,Ignored',
			'Bulk-1,bulk1@import.example,Web,x',
			'Bulk-2,bulk2@import.example,,y',
			',missing-name@import.example,Web,z',
			'Bulk-4,not-an-email,Web,w',
			'"Quote, ""Q""",bulk5@import.example,Chat,v',
		].join('\r\n');
		const fileId = await uploadCsv(csv, 'My Leads.csv');
		let id = '';
		// the job steps on demand (test hook), so its first state is seen whatever the machine's load
		await withConfig({ jobStepMs: 60_000 }, async () => {
			const res = await createJob({
				operation: 'insert',
				resource: [
					leadsResource(fileId, {
						field_mappings: [
							{ api_name: 'Last_Name', index: 0 },
							{ api_name: 'Email', index: 1 },
							{ api_name: 'Lead_Source', index: 2, default_value: { value: 'Trade Show' } },
						],
					}),
				],
			});
			expect(res.status).toBe(201);
			expect(res.body).toMatchObject({
				status: 'success',
				code: 'SUCCESS',
				message: 'success',
				details: { created_by: { name: 'Sandbox Admin' } },
			});
			id = res.body.details.id;
			const early = await jobDetails(id);
			expect(early.body).toMatchObject({
				id,
				operation: 'insert',
				status: 'ADDED',
				character_encoding: 'UTF-8',
			});
			const seen: string[] = [];
			for (let i = 0; i < 10 && seen[seen.length - 1] !== 'COMPLETED'; i++) {
				seen.push(
					(await api(`${sb.url}/__sandbox/bulk/write/${id}/advance`, undefined, { method: 'POST' }))
						.body.status,
				);
			}
			expect(seen[0]).toBe('IN PROGRESS');
			expect(seen[seen.length - 1]).toBe('COMPLETED');
		});
		const job = await waitJob(id);
		expect(job).toMatchObject({
			id,
			status: 'COMPLETED',
			resource: [
				{
					status: 'COMPLETED',
					type: 'data',
					module: { api_name: 'Leads', id: expect.stringMatching(/^\d{19}$/) },
					file_id: fileId,
					field_mappings: [
						{ api_name: 'Last_Name', index: 0, format: null, find_by: null, default_value: null },
						{ api_name: 'Email', index: 1, format: null, find_by: null, default_value: null },
						{
							api_name: 'Lead_Source',
							index: 2,
							format: null,
							find_by: null,
							default_value: { value: 'Trade Show' },
						},
					],
					file: {
						status: 'COMPLETED',
						name: 'My Leads.csv',
						added_count: 3,
						updated_count: 0,
						skipped_count: 2,
						total_count: 5,
					},
				},
			],
			result: { download_url: `${sb.url}/v2/crm/${XGID}/bulk-write/${id}/${id}.zip` },
		});
		const { name, rows } = await resultCsv(job);
		expect(name).toBe('My Leads.csv');
		expect(rows[0]).toEqual([
			'Surname',
			'Mail',
			'Source',
			'Ignored',
			'STATUS',
			'RECORD_ID',
			'ERRORS',
		]);
		expect(rows.slice(1).map((r) => [r[4], r[6]])).toEqual([
			['ADDED', ''],
			['ADDED', ''],
			['SKIPPED', 'MANDATORY_NOT_FOUND-Last_Name'],
			['SKIPPED', 'INVALID_DATA-Email'],
			['ADDED', ''],
		]);
		expect(rows[5][0]).toBe('Quote, "Q"');
		const second = await getRecord('Leads', rows[2][5]);
		expect(second).toMatchObject({
			Last_Name: 'Bulk-2',
			Email: 'bulk2@import.example',
			Lead_Source: 'Trade Show',
		});
		expect(await getRecord('Leads', rows[5][5])).toMatchObject({
			Last_Name: 'Quote, "Q"',
			Lead_Source: 'Chat',
		});
	});

	test('without field_mappings the header names fields; dates per §4 and declared formats; semicolons', async () => {
		const fileId = await uploadCsv(
			[
				'Last_Name;Last_Contacted_Date;Follow_Up_Time;Email_Opt_Out;No_of_Employees',
				'Dates-1;03/28/2024;03/28/2024 14:35:04;true;12',
				'Dates-2;2024-13-01;;no;',
			].join('\n'),
		);
		const job = await waitJob(
			(await createJob({ operation: 'insert', resource: [leadsResource(fileId)] })).body.details.id,
		);
		expect(job.resource[0].field_mappings.map((m: any) => m.api_name)).toEqual([
			'Last_Name',
			'Last_Contacted_Date',
			'Follow_Up_Time',
			'Email_Opt_Out',
			'No_of_Employees',
		]);
		const { rows } = await resultCsv(job);
		expect(rows[1].slice(5)).toEqual(['ADDED', expect.stringMatching(/^\d{19}$/), '']);
		expect(rows[2].slice(5)).toEqual(['SKIPPED', '', 'INVALID_DATA-Last_Contacted_Date']);
		expect(await getRecord('Leads', rows[1][6])).toMatchObject({
			Last_Contacted_Date: '2024-03-28',
			Follow_Up_Time: '2024-03-28T14:35:04+00:00',
			Email_Opt_Out: true,
			No_of_Employees: 12,
		});
		const formatted = await uploadCsv('Last_Name,Day\nDates-3,28.03.2024\n');
		const job2 = await waitJob(
			(
				await createJob({
					operation: 'insert',
					resource: [
						leadsResource(formatted, {
							field_mappings: [
								{ api_name: 'Last_Name', index: 0 },
								{ api_name: 'Last_Contacted_Date', index: 1, format: 'dd.MM.yyyy' },
							],
						}),
					],
				})
			).body.details.id,
		);
		const { rows: rows2 } = await resultCsv(job2);
		expect(await getRecord('Leads', rows2[1][3])).toMatchObject({
			Last_Contacted_Date: '2024-03-28',
		});
	});

	test('update by id and upsert by Email write through updateRecord; unknown keys are skipped', async () => {
		const first = await waitJob(
			(
				await createJob({
					operation: 'insert',
					resource: [
						leadsResource(
							await uploadCsv(
								'Last_Name,Email,Company\nUp-1,up1@import.example,Old\nUp-2,up2@import.example,Old\n',
							),
						),
					],
				})
			).body.details.id,
		);
		const ids = (await resultCsv(first)).rows.slice(1).map((r) => r[4]);
		const update = await waitJob(
			(
				await createJob({
					operation: 'update',
					resource: [
						leadsResource(
							await uploadCsv(`Id,Company,Phone\n${ids[0]},New,\n4876876999999999999,Nope,\n`),
							{ find_by: 'id', ignore_empty: true },
						),
					],
				})
			).body.details.id,
		);
		expect(update.resource[0].file).toMatchObject({
			added_count: 0,
			updated_count: 1,
			skipped_count: 1,
			total_count: 2,
		});
		expect((await resultCsv(update)).rows.slice(1).map((r) => r.slice(3))).toEqual([
			['UPDATED', ids[0], ''],
			['SKIPPED', '', 'RESOURCE_NOT_FOUND-id'],
		]);
		expect(await getRecord('Leads', ids[0])).toMatchObject({
			Company: 'New',
			Email: 'up1@import.example',
		});

		const upsert = await waitJob(
			(
				await createJob({
					operation: 'upsert',
					resource: [
						leadsResource(
							await uploadCsv(
								'Last_Name,Email,Company\nUp-2b,UP2@import.example,Upserted\nUp-3,up3@import.example,Fresh\n',
							),
							{ find_by: 'Email' },
						),
					],
				})
			).body.details.id,
		);
		expect(upsert.resource[0]).toMatchObject({
			find_by: 'Email',
			file: { added_count: 1, updated_count: 1, total_count: 2 },
		});
		const rows = (await resultCsv(upsert)).rows.slice(1);
		expect(rows.map((r) => r.slice(3, 5))).toEqual([
			['UPDATED', ids[1]],
			['ADDED', expect.stringMatching(/^\d{19}$/)],
		]);
		expect(await getRecord('Leads', ids[1])).toMatchObject({
			Last_Name: 'Up-2b',
			Company: 'Upserted',
		});
	});

	test('lookup mappings may match by a field of the looked-up module (find_by on the mapping)', async () => {
		const [account] = (
			await api(`${sb.url}/crm/v2.1/Accounts`, sb.token, {
				query: { fields: 'Account_Name', per_page: 1 },
			})
		).body.data;
		const fileId = await uploadCsv(
			`Last_Name,Account\nLook-1,${account.Account_Name as string}\nLook-2,No Such Account\n`,
			'Contacts.csv',
		);
		const job = await waitJob(
			(
				await createJob({
					operation: 'insert',
					resource: [
						{
							type: 'data',
							module: { api_name: 'Contacts' },
							file_id: fileId,
							field_mappings: [
								{ api_name: 'Last_Name', index: 0 },
								{ api_name: 'Account_Name', index: 1, find_by: 'Account_Name' },
							],
						},
					],
				})
			).body.details.id,
		);
		const rows = (await resultCsv(job)).rows.slice(1);
		expect(rows.map((r) => [r[2], r[4]])).toEqual([
			['ADDED', ''],
			['SKIPPED', 'INVALID_DATA-Account_Name'],
		]);
		expect((await getRecord('Contacts', rows[0][3])).Account_Name.id).toBe(account.id);
	});

	test('rows go through the record service in chunks: one insert change event per chunk', async () => {
		// the change events the service published (test hook GET /__sandbox/changes, docs/protocol.md §14)
		await api(`${sb.url}/__sandbox/changes`, undefined, { method: 'DELETE' });
		await withConfig({ knobs: { bulkWriteChunk: 4 } }, async () => {
			const csv = ['Last_Name', ...Array.from({ length: 10 }, (_, i) => `Chunk-${i}`)].join('\n');
			const job = await waitJob(
				(await createJob({ operation: 'insert', resource: [leadsResource(await uploadCsv(csv))] }))
					.body.details.id,
			);
			expect(job.resource[0].file.added_count).toBe(10);
		});
		const changes = (
			await api(`${sb.url}/__sandbox/changes`, undefined, { query: { module: 'Leads' } })
		).body.changes as any[];
		expect(changes.filter((c) => c.operation === 'insert').map((c) => c.ids.length)).toEqual([
			4, 4, 2,
		]);
	});

	test('v2 renders resource[].module as a String and requires that form', async () => {
		const fileId = await uploadCsv('Last_Name\nV2-1\n');
		const wrong = await createJob({ operation: 'insert', resource: [leadsResource(fileId)] }, 'v2');
		expect(wrong.status).toBe(400);
		expect(wrong.body).toMatchObject({ code: 'INVALID_DATA', details: { api_name: 'module' } });
		const res = await createJob(
			{ operation: 'insert', resource: [{ type: 'data', module: 'Leads', file_id: fileId }] },
			'v2',
		);
		expect(res.status).toBe(201);
		const job = await waitJob(res.body.details.id, 'v2');
		expect(job.resource[0].module).toBe('Leads');
		expect(job.result.download_url).toBe(
			`${sb.url}/v2/crm/${XGID}/bulk-write/${job.id}/${job.id}.zip`,
		);
	});

	test('create errors (ordinary top-level objects)', async () => {
		const fileId = await uploadCsv('Last_Name,Email\nErr,err@import.example\n');
		const cases: Array<[unknown, string, Record<string, unknown>?]> = [
			[{ resource: [leadsResource(fileId)] }, 'MISSING_REQUIRED_KEY', { api_name: 'operation' }],
			[
				{ operation: 'merge', resource: [leadsResource(fileId)] },
				'INVALID_DATA',
				{ api_name: 'operation' },
			],
			[{ operation: 'insert' }, 'MISSING_REQUIRED_KEY', { api_name: 'resource' }],
			[
				{ operation: 'insert', resource: [leadsResource('4876876999999999999')] },
				'INVALID_FILE_ID',
				{ file_id: '4876876999999999999' },
			],
			[
				{
					operation: 'insert',
					resource: [{ type: 'data', module: { api_name: 'Nope' }, file_id: fileId }],
				},
				'MODULE_NOT_AVAILABLE',
			],
			[
				{
					operation: 'insert',
					resource: [leadsResource(fileId, { field_mappings: [{ api_name: 'Email', index: 1 }] })],
				},
				'MANDATORY_FIELDS_NOT_MAPPED',
				{ api_name: 'Last_Name' },
			],
			[
				{ operation: 'update', resource: [leadsResource(fileId)] },
				'MISSING_REQUIRED_KEY',
				{ api_name: 'find_by' },
			],
			[
				{ operation: 'upsert', resource: [leadsResource(fileId, { find_by: 'Company' })] },
				'INVALID_FIELD',
			],
			[
				{ operation: 'update', resource: [leadsResource(fileId, { find_by: 'id' })] },
				'MANDATORY_FIELDS_NOT_MAPPED',
				{ api_name: 'id' },
			],
			[
				{
					operation: 'insert',
					resource: [leadsResource(fileId, { field_mappings: [{ api_name: 'Nope', index: 0 }] })],
				},
				'INVALID_FIELD_NAME',
				{ api_name: 'Nope' },
			],
			[
				{
					operation: 'insert',
					resource: [
						leadsResource(fileId, { field_mappings: [{ api_name: 'Last_Name', index: 5 }] }),
					],
				},
				'COLUMN_INDEX_NOT_FOUND',
			],
			[
				{
					operation: 'insert',
					resource: [leadsResource(fileId)],
					callback: { url: 'nope', method: 'post' },
				},
				'INVALID_CALLBACK_URL',
			],
			[
				{
					operation: 'insert',
					resource: [leadsResource(fileId)],
					callback: { url: 'https://x.example/cb', method: 'put' },
				},
				'INVALID_CALLBACK_METHOD',
			],
			[
				{ operation: 'insert', resource: [leadsResource(fileId)], character_encoding: 'EBCDIC' },
				'INVALID_DATA',
				{ api_name: 'character_encoding' },
			],
		];
		for (const [body, code, details] of cases) {
			const res = await createJob(body);
			expect({ body, status: res.status, code: res.body.code }).toEqual({
				body,
				status: 400,
				code,
			});
			expect(res.body['x-error']).toBeUndefined();
			if (details) expect(res.body.details).toMatchObject(details);
		}
		const unknown = await jobDetails('4876876999999999999');
		expect(unknown.status).toBe(404);
		expect(unknown.body.code).toBe('RESOURCE_NOT_FOUND');
	});

	test('scopes: CRM.bulk.CREATE and a module scope covering the operation', async () => {
		const fileId = await uploadCsv('Last_Name\nScope\n');
		const createOnly = (
			await grantToken(sb.url, { scope: 'CRM.bulk.CREATE,CRM.modules.leads.CREATE' })
		).access_token;
		const ok = await createJob(
			{ operation: 'insert', resource: [leadsResource(fileId)] },
			'v2.1',
			createOnly,
		);
		expect(ok.status).toBe(201);
		const upsert = await createJob(
			{ operation: 'upsert', resource: [leadsResource(fileId, { find_by: 'Email' })] },
			'v2.1',
			createOnly,
		);
		expect(upsert.status).toBe(401);
		expect(upsert.body.code).toBe('OAUTH_SCOPE_MISMATCH');
		await waitJob(ok.body.details.id);
	});

	test('the failure hook: FAILED job, FAILED resource, partial results and UNPROCESSED rows', async () => {
		await withConfig(
			{ jobStepMs: 60_000, knobs: { bulkWriteChunk: 2, bulkWriteChunkDelayMs: 60_000 } },
			async () => {
				const fileId = await uploadCsv(['Last_Name', 'F-1', 'F-2', 'F-3', 'F-4', 'F-5'].join('\n'));
				const id = (
					await createJob({
						operation: 'insert',
						resource: [leadsResource(fileId), leadsResource(fileId)],
					})
				).body.details.id;
				const hook = async (action: string) =>
					(
						await api(`${sb.url}/__sandbox/bulk/write/${id}/${action}`, undefined, {
							method: 'POST',
						})
					).body;
				expect((await hook('advance')).status).toBe('IN PROGRESS');
				const afterChunk = await hook('advance');
				expect(afterChunk.resource[0]).toMatchObject({
					status: 'IN PROGRESS',
					file: { added_count: 2, total_count: 5 },
				});
				expect((await jobDetails(id)).body.result).toBeUndefined();
				await hook('fail');
				const failed = await hook('advance');
				expect(failed).toMatchObject({
					status: 'FAILED',
					resource: [{ status: 'FAILED', file: { status: 'FAILED' } }, { status: 'SKIPPED' }],
				});
				const res = await fetch(failed.result.download_url, {
					headers: { Authorization: `Bearer ${sb.token}` },
				});
				const [first, second] = readZip(Buffer.from(await res.arrayBuffer())).map((e) =>
					parseCsv(e.data.toString('utf8')),
				);
				expect(first.slice(1).map((r) => r[1])).toEqual([
					'ADDED',
					'ADDED',
					'UNPROCESSED',
					'UNPROCESSED',
					'UNPROCESSED',
				]);
				expect(second.slice(1).every((r) => r[1] === 'UNPROCESSED')).toBe(true);
			},
		);
	});

	test('jobs beyond the concurrency limit: 429; result before the end and wrong download paths: 404', async () => {
		await withConfig({ jobStepMs: 60_000, knobs: { bulkWriteConcurrency: 1 } }, async () => {
			const fileId = await uploadCsv('Last_Name\nConc\n');
			const a = await createJob({ operation: 'insert', resource: [leadsResource(fileId)] });
			expect(a.status).toBe(201);
			const b = await createJob({ operation: 'insert', resource: [leadsResource(fileId)] });
			expect(b.status).toBe(429);
			expect(b.body.code).toBe('TOO_MANY_REQUESTS');
			const id = a.body.details.id;
			const early = await api(`${sb.url}/v2/crm/${XGID}/bulk-write/${id}/${id}.zip`, sb.token);
			expect(early.status).toBe(404);
			for (let i = 0; i < 3; i++)
				await api(`${sb.url}/__sandbox/bulk/write/${id}/advance`, undefined, { method: 'POST' });
			expect((await jobDetails(id)).body.status).toBe('COMPLETED');
			expect(
				(await api(`${sb.url}/v2/crm/${XGID}/bulk-write/${id}/${id}.zip`, sb.token)).status,
			).toBe(200);
			expect(
				(await api(`${sb.url}/v2/crm/4876876000000000009/bulk-write/${id}/${id}.zip`, sb.token))
					.status,
			).toBe(404);
			expect(
				(await api(`${sb.url}/v2/crm/${XGID}/bulk-write/${id}/other.zip`, sb.token)).status,
			).toBe(404);
			expect((await api(`${sb.url}/v2/crm/${XGID}/bulk-write/${id}/${id}.zip`)).status).toBe(401);
		});
	});
});

describe('callbacks (§10.2)', () => {
	let server: Server;
	let hook: string;
	const received: any[] = [];
	beforeAll(async () => {
		server = createServer((req, res) => {
			let text = '';
			req.on('data', (c) => (text += c));
			req.on('end', () => {
				received.push(JSON.parse(text));
				res.writeHead(204);
				res.end();
			});
		});
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
		hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bulk-write`;
	});
	afterAll(async () => await new Promise<void>((r) => server.close(() => r())));

	test('the job-details object with job_id is POSTed once COMPLETED', async () => {
		const fileId = await uploadCsv('Last_Name\nCb-1\nCb-2\n', 'Leads.csv');
		const res = await createJob({
			operation: 'insert',
			callback: { url: hook, method: 'post' },
			resource: [leadsResource(fileId, { field_mappings: [{ api_name: 'Last_Name', index: 0 }] })],
		});
		const id = res.body.details.id;
		await waitFor(() => received.some((b) => b.job_id === id), { timeout: 3000 }).catch(
			() => undefined,
		);
		const body = received.find((b) => b.job_id === id);
		expect(body).toEqual({
			job_id: id,
			operation: 'insert',
			status: 'COMPLETED',
			character_encoding: 'UTF-8',
			result: { download_url: `${sb.url}/v2/crm/${XGID}/bulk-write/${id}/${id}.zip` },
			resource: [
				{
					status: 'COMPLETED',
					type: 'data',
					module: { api_name: 'Leads', id: expect.any(String) },
					file_id: fileId,
					ignore_empty: false,
					field_mappings: [
						{ api_name: 'Last_Name', index: 0, format: null, find_by: null, default_value: null },
					],
					file: {
						status: 'COMPLETED',
						name: 'Leads.csv',
						added_count: 2,
						skipped_count: 0,
						updated_count: 0,
						total_count: 2,
					},
				},
			],
			callback: { url: hook, method: 'post' },
			created_by: { id: expect.any(String), name: 'Sandbox Admin' },
			created_time: expect.stringMatching(/\+00:00$/),
		});
		expect(body.id).toBeUndefined();
	});
});
