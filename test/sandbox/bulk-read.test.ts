// Contract tests of bulk read (docs/protocol.md §5.11, §6, §8.1, §10.1, §10.3, §11.5, §12) over HTTP.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { parseCsv } from '../../sandbox/csv.ts';
import { readZip } from '../../sandbox/zip.ts';
import type { RunningSandbox, SandboxOptions } from '../harness/sandbox.ts';
import { contractFixture, withSandboxConfig } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';
import { waitFor } from '../harness/wait.ts';

const SCOPE = 'CRM.bulk.ALL,CRM.modules.ALL';
const FAST: SandboxOptions = {
	jobStepMs: 10,
	deliveryRetryDelaysMs: [0, 20, 40],
	knobs: { bulkReadDownloadsPerMinute: 1000 },
};

interface Env {
	sb: RunningSandbox;
	url: string;
	token: string;
}

async function env(options: SandboxOptions = FAST, scope = SCOPE): Promise<Env> {
	const sb = await contractFixture({ scope, sandbox: options });
	return { sb, url: sb.url, token: sb.token };
}

const create = async (e: Env, body: unknown, v = 'v2.1', tok = e.token) =>
	await api(`${e.url}/crm/bulk/${v}/read`, tok, { method: 'POST', body });

const details = async (e: Env, id: string, v = 'v2.1') =>
	await api(`${e.url}/crm/bulk/${v}/read/${id}`, e.token);

async function waitDone(e: Env, id: string, v = 'v2.1'): Promise<any> {
	return await waitFor(
		async () => {
			const res = await details(e, id, v);
			expect(res.status).toBe(200);
			return res.body.data[0];
		},
		{
			ok: (job) => job.state === 'COMPLETED' || job.state === 'FAILURE',
			what: `job ${id} finished`,
		},
	);
}

async function download(
	e: Env,
	id: string,
	v = 'v2.1',
): Promise<{ status: number; headers: Headers; bytes: Buffer; body?: any }> {
	const res = await fetch(`${e.url}/crm/bulk/${v}/read/${id}/result`, {
		headers: { Authorization: `Bearer ${e.token}` },
	});
	const bytes = Buffer.from(await res.arrayBuffer());
	const body = res.headers.get('content-type')?.startsWith('application/json')
		? JSON.parse(bytes.toString('utf8'))
		: undefined;
	return { status: res.status, headers: res.headers, bytes, body };
}

async function advanceClock(ms: number): Promise<void> {
	expect(
		(await api(`${e.url}/__sandbox/clock`, undefined, { method: 'POST', body: { advance_ms: ms } }))
			.status,
	).toBe(200);
}

async function resultRows(e: Env, id: string): Promise<{ name: string; rows: string[][] }> {
	const res = await download(e, id);
	expect(res.status).toBe(200);
	const entries = readZip(res.bytes);
	expect(entries).toHaveLength(1);
	return { name: entries[0].name, rows: parseCsv(entries[0].data.toString('utf8')) };
}

/** RecordCount of a module (GET /{module}/actions/count). */
async function countOf(e: Env, module: string): Promise<number> {
	const res = await api(`${e.url}/crm/v2.1/${module}/actions/count`, e.token);
	expect(res.status).toBe(200);
	return res.body.count;
}

/** Every record of a module as GetRecords lists them, every page, in the service's order. */
async function listAll(
	e: Env,
	module: string,
	fields: string,
	query: Record<string, string> = {},
): Promise<any[]> {
	const records: any[] = [];
	for (let page = 1; ; page++) {
		const res = await api(`${e.url}/crm/v2.1/${module}`, e.token, {
			query: { fields, per_page: 200, page, ...query },
		});
		if (res.status === 204) return records;
		expect(res.status).toBe(200);
		records.push(...res.body.data);
		if (!res.body.info.more_records) return records;
	}
}

let e: Env;
beforeAll(async () => (e = await env()));
afterAll(async () => await e.sb.close());

const withConfig = (
	change: { jobStepMs?: number; knobs?: Record<string, unknown> },
	fn: () => Promise<void>,
) => withSandboxConfig(e.sb, change, fn);

/** Every job, oldest first (test hook GET /__sandbox/bulk/read). */
const jobs = async () => (await api(`${e.url}/__sandbox/bulk/read`)).body.jobs;

/** Waits until no job of earlier tests is still running (they count against the concurrency limit). */
async function settle(): Promise<void> {
	const running = async () =>
		((await jobs()) as any[]).filter((j) => j.state === 'ADDED' || j.state === 'IN PROGRESS');
	await waitFor(running, { ok: (jobs) => jobs.length === 0, what: 'no job running' });
}

describe('CreateBulkReadJob → GetBulkReadJobDetails → DownloadResult', () => {
	test('create answers 201 ADDED_SUCCESSFULLY with the job in state ADDED', async () => {
		const res = await create(e, { query: { module: { api_name: 'Contacts' } } });
		expect(res.status).toBe(201);
		expect(res.body.info).toEqual({});
		expect(res.body.data[0]).toMatchObject({
			status: 'success',
			code: 'ADDED_SUCCESSFULLY',
			message: 'Added successfully.',
			details: {
				operation: 'read',
				state: 'ADDED',
				created_by: { id: expect.any(String), name: 'Sandbox Admin' },
			},
		});
		expect(res.body.data[0].details.id).toMatch(/^\d{19}$/);
		expect(res.body.data[0].details.created_time).toMatch(/\+00:00$/);
		await waitDone(e, res.body.data[0].details.id);
	});

	test('the job moves ADDED → IN PROGRESS → COMPLETED and only forward', async () => {
		const res = await create(e, { query: { module: { api_name: 'Leads' } } });
		const id = res.body.data[0].details.id;
		const seen: string[] = [];
		await waitFor(
			async () => {
				const state = (await details(e, id)).body.data[0].state;
				if (seen[seen.length - 1] !== state) seen.push(state);
				return state === 'COMPLETED';
			},
			{ interval: 2 },
		);
		const order = ['ADDED', 'IN PROGRESS', 'COMPLETED'];
		expect(seen[seen.length - 1]).toBe('COMPLETED');
		expect(seen.map((s) => order.indexOf(s))).toEqual(
			[...seen.map((s) => order.indexOf(s))].sort(),
		);
	});

	test('completed job details carry query, file_type and result; the zip holds {jobId}.csv with Id first', async () => {
		const res = await create(e, {
			query: {
				module: { api_name: 'Contacts' },
				fields: ['Last_Name', 'Email', 'Account_Name', 'Owner'],
			},
			file_type: 'csv',
		});
		const id = res.body.data[0].details.id;
		const job = await waitDone(e, id);
		const total = await countOf(e, 'Contacts');
		expect(job).toMatchObject({
			id,
			operation: 'read',
			state: 'COMPLETED',
			file_type: 'csv',
			query: {
				module: { api_name: 'Contacts', id: expect.stringMatching(/^\d{19}$/) },
				fields: ['Last_Name', 'Email', 'Account_Name', 'Owner'],
				page: 1,
			},
			result: {
				page: 1,
				per_page: 200000,
				count: total,
				more_records: false,
				download_url: `/crm/bulk/v2.1/read/${id}/result`,
			},
		});
		const file = await download(e, id);
		expect(file.headers.get('content-type')).toBe('application/zip');
		expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${id}.zip"`);
		const { name, rows } = await resultRows(e, id);
		expect(name).toBe(`${id}.csv`);
		expect(rows[0]).toEqual(['Id', 'Last_Name', 'Email', 'Account_Name', 'Owner']);
		expect(rows).toHaveLength(total + 1);
		// lookups as the referenced id
		const withAccount = (await listAll(e, 'Contacts', 'Last_Name,Account_Name,Owner')).find(
			(r: any) => r.Account_Name?.id,
		)!;
		const row = rows.find((r) => r[0] === withAccount.id)!;
		expect(row[3]).toBe((withAccount.Account_Name as any).id);
		expect(row[4]).toBe((withAccount.Owner as any).id);
		expect(row[1]).toBe(withAccount.Last_Name);
	});

	test('without fields every field is a column; v2 renders query.module as a String', async () => {
		const res = await create(e, { query: { module: 'Accounts' } }, 'v2');
		expect(res.status).toBe(201);
		const job = await waitDone(e, res.body.data[0].details.id, 'v2');
		expect(job.query.module).toBe('Accounts');
		expect(job.result.download_url).toBe(`/crm/bulk/v2/read/${job.id}/result`);
		const { rows } = await resultRows(e, job.id);
		expect(rows[0][0]).toBe('Id');
		expect(rows[0]).toEqual(
			expect.arrayContaining(['Account_Name', 'Owner', 'Created_Time', 'Description']),
		);
		expect(rows[0]).not.toContain('id');
	});

	test('v2 needs a String module and v2.1 an object: 400 INVALID_DATA otherwise', async () => {
		const a = await create(e, { query: { module: 'Leads' } }, 'v2.1');
		expect(a.status).toBe(400);
		expect(a.body).toMatchObject({ code: 'INVALID_DATA', details: { api_name: 'module' } });
		const b = await create(e, { query: { module: { api_name: 'Leads' } } }, 'v2');
		expect(b.status).toBe(400);
		expect(b.body.code).toBe('INVALID_DATA');
	});

	test('JSON criteria select the records (group, equal, in, between, starts_with, lookup join)', async () => {
		const created = await api(`${e.url}/crm/v2.1/Leads`, e.token, {
			method: 'POST',
			body: {
				data: [
					{ Last_Name: 'Crit-A', Lead_Source: 'Web', No_of_Employees: 5, Company: 'Acme' },
					{ Last_Name: 'Crit-B', Lead_Source: 'Web', No_of_Employees: 50, Company: 'Acme' },
					{ Last_Name: 'Crit-C', Lead_Source: 'Chat', No_of_Employees: 500, Company: 'Acme' },
				],
			},
		});
		expect(created.status).toBe(201);
		const ids: string[] = created.body.data.map((r: any) => r.details.id);
		const run = async (criteria: unknown) => {
			const res = await create(e, {
				query: { module: { api_name: 'Leads' }, fields: ['Last_Name'], criteria },
			});
			expect(res.status).toBe(201);
			const job = await waitDone(e, res.body.data[0].details.id);
			const { rows } = await resultRows(e, job.id);
			return rows.slice(1).map((r) => r[0]);
		};
		expect(
			await run({
				group_operator: 'and',
				group: [
					{ api_name: 'Company', comparator: 'equal', value: 'Acme' },
					{ api_name: 'Lead_Source', comparator: 'equal', value: 'Web' },
				],
			}),
		).toEqual([ids[0], ids[1]]);
		expect(
			await run({
				field: { api_name: 'No_of_Employees' },
				comparator: 'between',
				value: [10, 500],
			}),
		).toEqual(expect.arrayContaining([ids[1], ids[2]]));
		expect(
			await run({ api_name: 'Last_Name', comparator: 'in', value: ['Crit-A', 'Crit-C'] }),
		).toEqual([ids[0], ids[2]]);
		expect(await run({ field: 'Last_Name', comparator: 'starts_with', value: 'crit-' })).toEqual(
			ids,
		);
		expect(
			await run({
				group_operator: 'or',
				group: [
					{ api_name: 'No_of_Employees', comparator: 'greater_than', value: 100 },
					{ api_name: 'Lead_Source', comparator: 'equal', value: 'Nope' },
				],
			}),
		).toEqual(expect.arrayContaining([ids[2]]));
		// lookup join: contacts whose account has a given name
		const contacts = await listAll(e, 'Contacts', 'Account_Name');
		const contact = contacts.find((r: any) => r.Account_Name?.id);
		const account = (await api(`${e.url}/crm/v2.1/Accounts/${contact.Account_Name.id}`, e.token))
			.body.data[0];
		const res = await create(e, {
			query: {
				module: { api_name: 'Contacts' },
				criteria: {
					api_name: 'Account_Name.Account_Name',
					comparator: 'equal',
					value: account.Account_Name,
				},
			},
		});
		const job = await waitDone(e, res.body.data[0].details.id);
		const { rows } = await resultRows(e, job.id);
		expect(rows.slice(1).map((r) => r[0])).toContain(contact.id);
		expect(rows.length - 1).toBe(
			contacts.filter((r: any) => r.Account_Name?.id === account.id).length,
		);
	});

	test.each([
		[
			'unknown field',
			'FIELD_IN_CRITERIA_NOT_AVAILABLE',
			{ api_name: 'Nope', comparator: 'equal', value: 1 },
		],
		[
			'starts_with on a DateTime',
			'FIELD_AND_COMPARATOR_IN_CRITERIA_NOT_COMPATIBLE',
			{ api_name: 'Created_Time', comparator: 'starts_with', value: '2024' },
		],
		[
			'in without a list',
			'COMPARATOR_AND_VALUE_IN_CRITERIA_NOT_COMPATIBLE',
			{ api_name: 'Last_Name', comparator: 'in', value: 'x' },
		],
		[
			'text for an Integer',
			'FIELD_AND_VALUE_IN_CRITERIA_NOT_COMPATIBLE',
			{ api_name: 'No_of_Employees', comparator: 'equal', value: 'many' },
		],
		[
			'unknown comparator',
			'INVALID_CRITERIA',
			{ api_name: 'Last_Name', comparator: 'like', value: 'x' },
		],
		[
			'group operator xor',
			'GROUP_OPERATOR_NOT_SUPPORTED',
			{
				group_operator: 'xor',
				group: [
					{ api_name: 'Last_Name', comparator: 'equal', value: 'a' },
					{ api_name: 'Last_Name', comparator: 'equal', value: 'b' },
				],
			},
		],
		[
			'26 conditions',
			'CRITERIA_LIMIT_EXCEEDED',
			{
				group_operator: 'or',
				group: Array.from({ length: 26 }, (_, i) => ({
					api_name: 'Last_Name',
					comparator: 'equal',
					value: `n${i}`,
				})),
			},
		],
		[
			'51 values in in',
			'VALUE_LIMIT_EXCEEDED_IN_CRITERIA',
			{
				api_name: 'Last_Name',
				comparator: 'in',
				value: Array.from({ length: 51 }, (_, i) => `n${i}`),
			},
		],
	])('invalid criteria, %s: 400 %s', async (_label, code, criteria) => {
		const res = await create(e, { query: { module: { api_name: 'Leads' }, criteria } });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code, status: 'error' });
	});

	test('request errors: media type, empty and unreadable bodies, query, module, fields, file type', async () => {
		const raw = async (body: string, type?: string) => {
			const res = await fetch(`${e.url}/crm/bulk/v2.1/read`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${e.token}`, ...(type ? { 'Content-Type': type } : {}) },
				body,
			});
			return { status: res.status, body: JSON.parse(await res.text()) };
		};
		expect(await raw('query=1', 'application/x-www-form-urlencoded')).toMatchObject({
			status: 415,
			body: { code: 'MEDIA_TYPE_NOT_SUPPORTED' },
		});
		expect(await raw('', 'application/json')).toMatchObject({
			status: 400,
			body: { code: 'REQUEST_BODY_IS_EMPTY' },
		});
		expect(await raw('{nope', 'application/json')).toMatchObject({
			status: 400,
			body: { code: 'REQUEST_BODY_NOT_READABLE' },
		});
		const cases: Array<[unknown, number, string]> = [
			[{}, 400, 'MANDATORY_NOT_FOUND'],
			[{ query: {} }, 400, 'MANDATORY_NOT_FOUND'],
			[{ query: { module: { api_name: 'Nope' } } }, 400, 'MODULE_NOT_AVAILABLE'],
			[{ query: { module: { api_name: 'Notes' } } }, 400, 'MODULE_NOT_SUPPORTED'],
			[{ query: { module: { api_name: 'Leads' }, fields: ['Nope'] } }, 400, 'FIELD_NOT_AVAILABLE'],
			[{ query: { module: { api_name: 'Leads' }, page: 0 } }, 400, 'INVALID_DATA'],
			[{ query: { module: { api_name: 'Leads' } }, file_type: 'xlsx' }, 400, 'INVALID_DATA'],
			[{ query: { module: { api_name: 'Leads' } }, file_type: 'ics' }, 400, 'JOB_NOT_SUPPORTED'],
			[
				{
					query: { module: { api_name: 'Leads' } },
					callback: { url: 'not a url', method: 'post' },
				},
				400,
				'INVALID_CALLBACK_URL',
			],
			[
				{
					query: { module: { api_name: 'Leads' } },
					callback: { url: 'ftp://x.example/cb', method: 'post' },
				},
				400,
				'INVALID_CALLBACK_URL',
			],
			[
				{
					query: { module: { api_name: 'Leads' } },
					callback: { url: 'https://x.example/cb', method: 'get' },
				},
				400,
				'INVALID_CALLBACK_METHOD',
			],
		];
		for (const [body, status, code] of cases) {
			const res = await create(e, body);
			expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
		}
	});

	test('Events as ics: {jobId}.ics in the zip, one VEVENT per record', async () => {
		const res = await create(e, { query: { module: { api_name: 'Events' } }, file_type: 'ics' });
		expect(res.status).toBe(201);
		const job = await waitDone(e, res.body.data[0].details.id);
		expect(job.file_type).toBe('ics');
		const file = await download(e, job.id);
		const [entry] = readZip(file.bytes);
		expect(entry.name).toBe(`${job.id}.ics`);
		const text = entry.data.toString('utf8');
		expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
		expect(text.match(/BEGIN:VEVENT/g)?.length).toBe(await countOf(e, 'Events'));
		expect(text).toMatch(/DTSTART:\d{8}T\d{6}Z/);
	});

	test('unknown job: 404 RESOURCE_NOT_FOUND on details and result', async () => {
		expect(await details(e, '4876876999999999999')).toMatchObject({
			status: 404,
			body: { code: 'RESOURCE_NOT_FOUND' },
		});
		expect((await download(e, '4876876999999999999')).body).toMatchObject({
			code: 'RESOURCE_NOT_FOUND',
		});
	});
});

describe('paging, concurrency, download limits, failure and on-demand steps', () => {
	test('200,000-record pages (knob-scaled): page 2 starts after page 1; more_records tells', async () => {
		await withConfig({ knobs: { bulkReadPageSize: 10 } }, async () => {
			// a bulk read exports converted leads too
			const all = (await listAll(e, 'Leads', 'Last_Name', { converted: 'both' })).map((r) => r.id);
			const first = await waitDone(
				e,
				(await create(e, { query: { module: { api_name: 'Leads' }, fields: ['Last_Name'] } })).body
					.data[0].details.id,
			);
			expect(first.result).toMatchObject({ page: 1, per_page: 10, count: 10, more_records: true });
			const second = await waitDone(
				e,
				(
					await create(e, {
						query: { module: { api_name: 'Leads' }, fields: ['Last_Name'], page: 2 },
					})
				).body.data[0].details.id,
			);
			expect(second.result).toMatchObject({ page: 2, count: 10 });
			const ids1 = (await resultRows(e, first.id)).rows.slice(1).map((r) => r[0]);
			const ids2 = (await resultRows(e, second.id)).rows.slice(1).map((r) => r[0]);
			expect([...ids1, ...ids2]).toEqual(all.slice(0, 20));
			const lastPage = Math.ceil(all.length / 10);
			const last = await waitDone(
				e,
				(await create(e, { query: { module: { api_name: 'Leads' }, page: lastPage } })).body.data[0]
					.details.id,
			);
			expect(last.result).toMatchObject({
				more_records: false,
				count: all.length - (lastPage - 1) * 10,
			});
		});
	});

	test('jobs beyond the concurrency limit: 429 TOO_MANY_REQUESTS; result before COMPLETED: 404', async () => {
		await settle();
		await withConfig({ jobStepMs: 60_000, knobs: { bulkReadConcurrency: 2 } }, async () => {
			const body = { query: { module: { api_name: 'Leads' } } };
			const a = await create(e, body);
			expect(a.status).toBe(201);
			expect((await create(e, body)).status).toBe(201);
			const third = await create(e, body);
			expect(third.status).toBe(429);
			expect(third.body).toEqual({
				code: 'TOO_MANY_REQUESTS',
				details: {},
				message:
					'Number of API requests for the 24 hour period is exceeded or the concurrency limit of the user for the app is exceeded',
				status: 'error',
			});
			const early = await download(e, a.body.data[0].details.id);
			expect(early.status).toBe(404);
			expect(early.body.code).toBe('RESOURCE_NOT_FOUND');
			// on-demand steps (test hook) finish a job and free a slot
			const id = a.body.data[0].details.id;
			const step1 = await api(`${e.url}/__sandbox/bulk/read/${id}/advance`, undefined, {
				method: 'POST',
			});
			expect(step1.body.state).toBe('IN PROGRESS');
			const step2 = await api(`${e.url}/__sandbox/bulk/read/${id}/advance`, undefined, {
				method: 'POST',
			});
			expect(step2.body.state).toBe('COMPLETED');
			expect((await create(e, body)).status).toBe(201);
			for (const job of ((await jobs()) as any[]).filter((j) => j.state !== 'COMPLETED')) {
				await api(`${e.url}/__sandbox/bulk/read/${job.id}/advance`, undefined, { method: 'POST' });
				await api(`${e.url}/__sandbox/bulk/read/${job.id}/advance`, undefined, { method: 'POST' });
			}
		});
	});

	test('more than 10 result downloads per minute: 429', async () => {
		await withConfig({ knobs: { bulkReadDownloadsPerMinute: 10 } }, async () => {
			await advanceClock(61_000); // earlier downloads leave the one-minute window
			const job = await waitDone(
				e,
				(await create(e, { query: { module: { api_name: 'Vendors' } } })).body.data[0].details.id,
			);
			for (let i = 0; i < 10; i++) expect((await download(e, job.id)).status).toBe(200);
			const over = await download(e, job.id);
			expect(over.status).toBe(429);
			expect(over.body.code).toBe('TOO_MANY_REQUESTS');
			await advanceClock(61_000);
		});
	});

	test('the failure hook ends the job in FAILURE without result', async () => {
		await withConfig({ jobStepMs: 200 }, async () => {
			const id = (await create(e, { query: { module: { api_name: 'Leads' } } })).body.data[0]
				.details.id;
			await api(`${e.url}/__sandbox/bulk/read/${id}/fail`, undefined, { method: 'POST' });
			const job = await waitDone(e, id);
			expect(job.state).toBe('FAILURE');
			expect(job.result).toBeUndefined();
			expect((await download(e, id)).status).toBe(404);
		});
	});

	test('scopes: CRM.bulk.READ and a module read scope are both needed', async () => {
		const limited = (await grantToken(e.url, { scope: 'CRM.bulk.READ,CRM.modules.leads.READ' }))
			.access_token;
		const ok = await create(e, { query: { module: { api_name: 'Leads' } } }, 'v2.1', limited);
		expect(ok.status).toBe(201);
		const other = await create(e, { query: { module: { api_name: 'Contacts' } } }, 'v2.1', limited);
		expect(other.status).toBe(401);
		expect(other.body.code).toBe('OAUTH_SCOPE_MISMATCH');
		const noBulk = (await grantToken(e.url, { scope: 'CRM.modules.ALL' })).access_token;
		expect(
			(await create(e, { query: { module: { api_name: 'Leads' } } }, 'v2.1', noBulk)).status,
		).toBe(401);
		await waitDone(e, ok.body.data[0].details.id);
	});
});

describe('callbacks (§10.1)', () => {
	let server: Server;
	let hook: string;
	const received: Array<{ path: string; body: any; headers: any }> = [];
	let failFirst = 0;

	beforeAll(async () => {
		server = createServer((req, res) => {
			let text = '';
			req.on('data', (c) => (text += c));
			req.on('end', () => {
				received.push({ path: req.url ?? '', body: JSON.parse(text), headers: req.headers });
				if (req.url?.includes('always-fail') || failFirst-- > 0) {
					res.writeHead(500);
					res.end();
					return;
				}
				res.writeHead(200);
				res.end('ok');
			});
		});
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
		hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((r) => server.close(() => r())));

	const until = async (fn: () => boolean) => {
		await waitFor(fn, { timeout: 3000 }).catch(() => undefined);
		expect(fn()).toBe(true);
	};
	/** the job's callback delivery, once it has the outcome (test hook GET /__sandbox/callbacks, docs/protocol.md §14) */
	const callbackOf = async (id: string, outcome: string) => {
		const logged = async () =>
			(await api(`${e.url}/__sandbox/callbacks`, undefined, { query: { job_id: id } })).body
				.callbacks as any[];
		const [log] = await waitFor(logged, {
			ok: (list) => list.some((l) => l.outcome === outcome),
			timeout: 3000,
			what: `callback ${outcome}`,
		});
		return log;
	};

	test('POSTs the §10.1 body once COMPLETED, retrying after a failed attempt', async () => {
		{
			failFirst = 1;
			const res = await create(e, {
				query: { module: { api_name: 'Contacts' }, page: 1 },
				callback: { url: `${hook}/read-done`, method: 'post' },
			});
			const id = res.body.data[0].details.id;
			await until(() => received.filter((r) => r.path === '/read-done').length === 2);
			const [first, second] = received.filter((r) => r.path === '/read-done');
			expect(first.body).toEqual(second.body);
			expect(second.headers['content-type']).toBe('application/json');
			expect(second.body).toEqual({
				job_id: id,
				operation: 'read',
				state: 'COMPLETED',
				query: { module: { api_name: 'Contacts', id: expect.any(String) }, page: 1 },
				result: {
					page: 1,
					per_page: 200000,
					count: await countOf(e, 'Contacts'),
					download_url: `/crm/bulk/v2.1/read/${id}/result`,
					more_records: false,
				},
			});
			expect((await callbackOf(id, 'delivered')).attempts).toHaveLength(2);
		}
	});

	test('v2 body names the module as a String; FAILURE is posted without result', async () => {
		await withConfig({ jobStepMs: 100 }, async () => {
			const res = await create(
				e,
				{ query: { module: 'Leads' }, callback: { url: `${hook}/v2-fail`, method: 'post' } },
				'v2',
			);
			const id = res.body.data[0].details.id;
			await api(`${e.url}/__sandbox/bulk/read/${id}/fail`, undefined, { method: 'POST' });
			await until(() => received.some((r) => r.path === '/v2-fail'));
			expect(received.find((r) => r.path === '/v2-fail')!.body).toEqual({
				job_id: id,
				operation: 'read',
				state: 'FAILURE',
				query: { module: 'Leads', page: 1 },
			});
		});
	});

	test('after the last failed attempt the delivery is logged as CALLBACK_FAILURE; the job stays COMPLETED', async () => {
		const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
		try {
			const res = await create(e, {
				query: { module: { api_name: 'Vendors' } },
				callback: { url: `${hook}/always-fail`, method: 'post' },
			});
			const id = res.body.data[0].details.id;
			const log = await callbackOf(id, 'CALLBACK_FAILURE');
			expect(log.attempts).toHaveLength(3);
			expect(log.attempts.every((a: any) => a.status === 500)).toBe(true);
			expect(warn).toHaveBeenCalledWith(
				expect.stringContaining('callback failed after 3 attempts'),
			);
			expect((await details(e, id)).body.data[0].state).toBe('COMPLETED');
		} finally {
			warn.mockRestore();
		}
	});
});
