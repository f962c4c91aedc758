// Contract tests of the sandbox record operations (docs/protocol.md §3.6–3.9, §5.1, §11) over HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken, startTestSandbox } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL,CRM.settings.ALL' });
const { call } = sb;

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const ID = /^\d{19}$/;

async function advanceClock(ms: number): Promise<void> {
	const res = await api(`${sb.url}/__sandbox/clock`, undefined, {
		method: 'POST',
		body: { advance_ms: ms },
	});
	expect(res.status).toBe(200);
}

async function createLead(data: Record<string, unknown>, v = 'v2.1'): Promise<string> {
	const res = await call('POST', `/crm/${v}/Leads`, {
		body: { data: [{ Last_Name: 'Test', ...data }] },
	});
	expect(res.status).toBe(201);
	expect(res.body.data[0].code).toBe('SUCCESS');
	return res.body.data[0].details.id;
}

async function getLead(id: string): Promise<any> {
	const res = await call('GET', `/crm/v2.1/Leads/${id}`);
	expect(res.status).toBe(200);
	return res.body.data[0];
}

/** Every record of a module, following info.more_records. */
async function allRecords(base: string, tok: string, module: string): Promise<any[]> {
	const out: any[] = [];
	for (let page = 1; ; page++) {
		const res = await api(`${base}/crm/v2.1/${module}`, tok, { query: { page, per_page: 200 } });
		if (res.status === 204) return out;
		expect(res.status).toBe(200);
		out.push(...res.body.data);
		if (!res.body.info.more_records) return out;
	}
}

describe('GetRecords', () => {
	it('pages with page/per_page and info.more_records', async () => {
		const all = await allRecords(sb.url, sb.token, 'Accounts');
		expect(all.length).toBeGreaterThan(20);
		const p1 = await call('GET', '/crm/v2.1/Accounts', { query: { page: 1, per_page: 10 } });
		const p2 = await call('GET', '/crm/v2.1/Accounts', { query: { page: 2, per_page: 10 } });
		expect(p1.status).toBe(200);
		expect(p1.body.info).toEqual({ per_page: 10, count: 10, page: 1, more_records: true });
		expect(p2.body.info).toEqual({ per_page: 10, count: 10, page: 2, more_records: true });
		expect([...p1.body.data, ...p2.body.data].map((r: any) => r.id)).toEqual(
			all.slice(0, 20).map((r) => r.id),
		);
		const perPage = 7;
		const lastPage = Math.ceil(all.length / perPage);
		const last = await call('GET', '/crm/v2.1/Accounts', {
			query: { page: lastPage, per_page: perPage },
		});
		expect(last.status).toBe(200);
		expect(last.body.info).toEqual({
			per_page: perPage,
			count: all.length - perPage * (lastPage - 1),
			page: lastPage,
			more_records: false,
		});
		expect(last.body.data.map((r: any) => r.id)).toEqual(
			all.slice(perPage * (lastPage - 1)).map((r) => r.id),
		);
	});

	it('defaults to page 1 and per_page 200', async () => {
		const res = await call('GET', '/crm/v2/Accounts');
		expect(res.status).toBe(200);
		expect(res.body.info.page).toBe(1);
		expect(res.body.info.per_page).toBe(200);
		expect(res.body.info.count).toBe(res.body.data.length);
	});

	it.each([
		['v2.1', 'per_page', '201', 'param_name'],
		['v2', 'per_page', '201', 'param'],
		['v2.1', 'per_page', '0', 'param_name'],
		['v2.1', 'page', '0', 'param_name'],
		['v2', 'page', 'x', 'param'],
	])('%s %s=%s answers 400 INVALID_DATA with details.%s', async (v, name, value, key) => {
		const res = await call('GET', `/crm/${v}/Leads`, { query: { [name]: value } });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_DATA');
		expect(res.body.status).toBe('error');
		expect(res.body.details[key]).toBe(name);
		if (key === 'param') expect(res.body.details).not.toHaveProperty('param_name');
	});

	it('fields limits the returned fields (id always kept)', async () => {
		const res = await call('GET', '/crm/v2.1/Leads', {
			query: { fields: 'Last_Name,Email', per_page: 20 },
		});
		expect(res.status).toBe(200);
		for (const record of res.body.data) {
			expect(Object.keys(record).every((k) => ['id', 'Last_Name', 'Email'].includes(k))).toBe(true);
			expect(record.id).toMatch(ID);
			expect(typeof record.Last_Name).toBe('string');
		}
		expect(res.body.data.some((r: any) => typeof r.Email === 'string')).toBe(true);
	});

	it('fields naming an unknown field answers 400 INVALID_DATA', async () => {
		const res = await call('GET', '/crm/v2.1/Leads', {
			query: { fields: 'Last_Name,No_Such_Field' },
		});
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_DATA');
		expect(res.body.details.api_name).toBe('No_Such_Field');
	});

	it('ids selects records (comma-joined or repeated)', async () => {
		const page = await call('GET', '/crm/v2.1/Contacts', { query: { per_page: 5 } });
		const wanted = [page.body.data[1].id, page.body.data[3].id];
		const res = await call('GET', '/crm/v2.1/Contacts', { query: { ids: wanted.join(',') } });
		expect(res.status).toBe(200);
		expect(res.body.data.map((r: any) => r.id).sort()).toEqual([...wanted].sort());
		const repeated = await call('GET', `/crm/v2.1/Contacts?ids=${wanted[0]}&ids=${wanted[1]}`);
		expect(repeated.body.data.map((r: any) => r.id).sort()).toEqual([...wanted].sort());
	});

	it('100 ids are accepted, 101 answer 400 LIMIT_EXCEEDED', async () => {
		const ids = Array.from({ length: 101 }, (_, i) => String(4876876000000000000n + BigInt(i)));
		const ok = await call('GET', '/crm/v2.1/Leads', {
			query: { ids: ids.slice(0, 100).join(',') },
		});
		expect(ok.status).toBe(204);
		const res = await call('GET', '/crm/v2.1/Leads', { query: { ids: ids.join(',') } });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('LIMIT_EXCEEDED');
		expect(res.body.details.limit).toBe(100);
	});

	it('sort_by / sort_order order the list; v2.1 info echoes them', async () => {
		const asc = await call('GET', '/crm/v2.1/Leads', {
			query: { sort_by: 'Last_Name', sort_order: 'asc', per_page: 200 },
		});
		expect(asc.status).toBe(200);
		const names: string[] = asc.body.data.map((r: any) => r.Last_Name);
		expect(names).toEqual([...names].sort());
		expect(asc.body.info).toEqual(
			expect.objectContaining({ sort_by: 'Last_Name', sort_order: 'asc' }),
		);
		const desc = await call('GET', '/crm/v2.1/Leads', {
			query: { sort_by: 'Last_Name', sort_order: 'desc', per_page: 200 },
		});
		const descNames: string[] = desc.body.data.map((r: any) => r.Last_Name);
		expect(descNames).toEqual([...descNames].sort().reverse());
		const v2 = await call('GET', '/crm/v2/Leads', {
			query: { sort_by: 'Last_Name', sort_order: 'asc', per_page: 5 },
		});
		expect(v2.body.info).not.toHaveProperty('sort_by');
		expect(v2.body.data.map((r: any) => r.Last_Name)).toEqual(names.slice(0, 5));
	});

	it('sort_by an unknown field or a bad sort_order answers 400 INVALID_DATA', async () => {
		const badField = await call('GET', '/crm/v2.1/Leads', { query: { sort_by: 'Nope' } });
		expect(badField.status).toBe(400);
		expect(badField.body.code).toBe('INVALID_DATA');
		expect(badField.body.details.param_name).toBe('sort_by');
		const badOrder = await call('GET', '/crm/v2.1/Leads', {
			query: { sort_by: 'Last_Name', sort_order: 'up' },
		});
		expect(badOrder.status).toBe(400);
		expect(badOrder.body.code).toBe('INVALID_DATA');
		expect(badOrder.body.details.param_name).toBe('sort_order');
	});

	it('answers 204 with an empty body when nothing matches', async () => {
		const res = await call('GET', '/crm/v2.1/Leads', { query: { page: 9999 } });
		expect(res.status).toBe(204);
		expect(res.body).toBeUndefined();
		const ids = await call('GET', '/crm/v2.1/Leads', { query: { ids: '4876876999999999999' } });
		expect(ids.status).toBe(204);
		expect(ids.body).toBeUndefined();
	});

	it('If-Modified-Since: 304 when nothing changed, the changed records otherwise', async () => {
		const latest = await call('GET', '/crm/v2.1/Projects', {
			query: { sort_by: 'Modified_Time', sort_order: 'desc', per_page: 3 },
		});
		expect(latest.status).toBe(200);
		const since: string = latest.body.data[0].Modified_Time;
		expect(since).toMatch(DATETIME);

		const unchanged = await call('GET', '/crm/v2.1/Projects', {
			headers: { 'If-Modified-Since': since },
		});
		expect(unchanged.status).toBe(304);
		expect(unchanged.body).toBeUndefined();
		const unchangedV2 = await call('GET', '/crm/v2/Projects', {
			headers: { 'If-Modified-Since': since },
		});
		expect(unchangedV2.status).toBe(304);
		// Z form and HTTP-date are accepted too
		const zForm = since.replace('+00:00', 'Z');
		expect(
			(await call('GET', '/crm/v2.1/Projects', { headers: { 'If-Modified-Since': zForm } })).status,
		).toBe(304);
		const httpDate = new Date(Date.parse(since)).toUTCString();
		expect(
			(await call('GET', '/crm/v2.1/Projects', { headers: { 'If-Modified-Since': httpDate } }))
				.status,
		).toBe(304);

		await advanceClock(2000);
		const target = latest.body.data[2].id;
		const update = await call('PUT', `/crm/v2.1/Projects/${target}`, {
			body: { data: [{ Summary: 'changed for IMS' }] },
		});
		expect(update.status).toBe(200);

		const changed = await call('GET', '/crm/v2.1/Projects', {
			headers: { 'If-Modified-Since': since },
		});
		expect(changed.status).toBe(200);
		expect(changed.body.data.map((r: any) => r.id)).toEqual([target]);
		expect(changed.body.data[0].Summary).toBe('changed for IMS');
		expect(changed.body.info.count).toBe(1);
	});

	it('If-Modified-Since on GetRecord: 304 when the record is unchanged', async () => {
		const id = await createLead({ Company: 'IMS One' });
		const record = await getLead(id);
		const same = await call('GET', `/crm/v2.1/Leads/${id}`, {
			headers: { 'If-Modified-Since': record.Modified_Time },
		});
		expect(same.status).toBe(304);
		const before = new Date(Date.parse(record.Modified_Time) - 60_000)
			.toISOString()
			.replace(/\.\d{3}Z$/, '+00:00');
		const older = await call('GET', `/crm/v2.1/Leads/${id}`, {
			headers: { 'If-Modified-Since': before },
		});
		expect(older.status).toBe(200);
		expect(older.body.data[0].id).toBe(id);
	});
});

describe('GetRecord', () => {
	it('answers one record under data', async () => {
		const id = await createLead({
			First_Name: 'Ada',
			Last_Name: 'Lovelace',
			Company: 'Engines Ltd',
		});
		for (const v of ['v2', 'v2.1']) {
			const res = await call('GET', `/crm/${v}/Leads/${id}`);
			expect(res.status).toBe(200);
			expect(res.body.data).toHaveLength(1);
			expect(res.body.data[0]).toEqual(
				expect.objectContaining({
					id,
					First_Name: 'Ada',
					Last_Name: 'Lovelace',
					Company: 'Engines Ltd',
				}),
			);
			expect(res.body.data[0].Created_Time).toMatch(DATETIME);
			expect(res.body.data[0].Owner).toEqual(
				expect.objectContaining({ id: expect.stringMatching(/^\d+$/), name: expect.any(String) }),
			);
		}
	});

	it('fields applies to GetRecord', async () => {
		const id = await createLead({ Company: 'Fields Co' });
		const res = await call('GET', `/crm/v2.1/Leads/${id}`, { query: { fields: 'Company' } });
		expect(res.body.data[0]).toEqual({ id, Company: 'Fields Co' });
	});

	it('an unknown id answers 204', async () => {
		const res = await call('GET', '/crm/v2.1/Leads/4876876999999999999');
		expect(res.status).toBe(204);
		expect(res.body).toBeUndefined();
	});
});

describe('external IDs (§3.9)', () => {
	const XE = { 'X-EXTERNAL': 'Leads.External_Lead_ID' };

	it('GET by external value', async () => {
		const res = await call('GET', '/crm/v2.1/Leads/LEAD-0001', { headers: XE });
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(1);
		expect(res.body.data[0].External_Lead_ID).toBe('LEAD-0001');
		expect(res.body.data[0].id).toMatch(ID);
		const byId = await call('GET', `/crm/v2.1/Leads/${res.body.data[0].id}`);
		expect(byId.body.data[0]).toEqual(res.body.data[0]);
	});

	it('GET by an unknown external value answers 204', async () => {
		const res = await call('GET', '/crm/v2.1/Leads/LEAD-NOPE', { headers: XE });
		expect(res.status).toBe(204);
	});

	it('PUT by external value updates the addressed record', async () => {
		const found = await call('GET', '/crm/v2.1/Leads/LEAD-0001', { headers: XE });
		const id = found.body.data[0].id;
		const res = await call('PUT', '/crm/v2.1/Leads/LEAD-0001', {
			headers: XE,
			body: { data: [{ Company: 'External Update Co' }] },
		});
		expect(res.status).toBe(200);
		expect(res.body.data[0]).toEqual(
			expect.objectContaining({ code: 'SUCCESS', action: 'update', status: 'success' }),
		);
		expect(res.body.data[0].details.id).toBe(id);
		expect((await getLead(id)).Company).toBe('External Update Co');
		expect((await getLead(id)).External_Lead_ID).toBe('LEAD-0001');
	});

	it('UpdateRecords under X-EXTERNAL take the external field instead of id', async () => {
		const id = await createLead({ External_Lead_ID: 'EXT-BATCH-1' });
		const res = await call('PUT', '/crm/v2.1/Leads', {
			headers: XE,
			body: { data: [{ External_Lead_ID: 'EXT-BATCH-1', City: 'Oslo' }] },
		});
		expect(res.status).toBe(200);
		expect(res.body.data[0].details.id).toBe(id);
		expect((await getLead(id)).City).toBe('Oslo');
	});

	it('DELETE by external value', async () => {
		const id = await createLead({ External_Lead_ID: 'EXT-DEL-1' });
		const res = await call('DELETE', '/crm/v2.1/Leads/EXT-DEL-1', { headers: XE });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual([
			{ code: 'SUCCESS', details: { id }, message: 'record deleted', status: 'success' },
		]);
		expect((await call('GET', `/crm/v2.1/Leads/${id}`)).status).toBe(204);
		expect((await call('GET', '/crm/v2.1/Leads/EXT-DEL-1', { headers: XE })).status).toBe(204);
	});

	it.each([
		['Leads.Email', 'Email'],
		['Leads.No_Such_Field', 'No_Such_Field'],
		['Nomodule.External_Lead_ID', 'External_Lead_ID'],
	])('X-EXTERNAL %s (not an external field) answers 400 INVALID_DATA', async (header, apiName) => {
		const res = await call('GET', '/crm/v2.1/Leads/LEAD-0001', {
			headers: { 'X-EXTERNAL': header },
		});
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_DATA');
		expect(res.body.status).toBe('error');
		expect(res.body.details.api_name).toBe(apiName);
	});

	it('X-EXTERNAL naming another module answers 400 INVALID_DATA', async () => {
		const res = await call('GET', '/crm/v2.1/Leads/ACC-0001', {
			headers: { 'X-EXTERNAL': 'Accounts.External_Account_ID' },
		});
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_DATA');
	});

	it('lookups in bodies may be given by external value', async () => {
		const account = await call('GET', '/crm/v2.1/Accounts/ACC-0001', {
			headers: { 'X-EXTERNAL': 'Accounts.External_Account_ID' },
		});
		expect(account.status).toBe(200);
		const res = await call('POST', '/crm/v2.1/Contacts', {
			headers: { 'X-EXTERNAL': 'Accounts.External_Account_ID' },
			body: {
				data: [{ Last_Name: 'ExtLookup', Account_Name: { External_Account_ID: 'ACC-0001' } }],
			},
		});
		expect(res.status).toBe(201);
		const contact = await call('GET', `/crm/v2.1/Contacts/${res.body.data[0].details.id}`);
		expect(contact.body.data[0].Account_Name).toEqual({
			id: account.body.data[0].id,
			name: account.body.data[0].Account_Name,
		});
	});
});

describe('CreateRecords', () => {
	it('answers 201 with the §11.3 success item', async () => {
		const res = await call('POST', '/crm/v2.1/Leads', {
			body: { data: [{ Last_Name: 'Envelope', Company: 'Shape Inc' }] },
		});
		expect(res.status).toBe(201);
		expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
		expect(Object.keys(res.body)).toEqual(['data']);
		expect(res.body.data).toHaveLength(1);
		const user = { id: expect.stringMatching(/^\d+$/), name: 'Sandbox Admin' };
		expect(res.body.data[0]).toEqual({
			code: 'SUCCESS',
			duplicate_field: null,
			action: 'insert',
			details: {
				Modified_Time: expect.stringMatching(DATETIME),
				Modified_By: user,
				Created_Time: expect.stringMatching(DATETIME),
				id: expect.stringMatching(ID),
				Created_By: user,
			},
			message: 'record added',
			status: 'success',
		});
		const { details } = res.body.data[0];
		expect(details.Created_Time).toBe(details.Modified_Time);
		const stored = await getLead(details.id);
		expect(stored).toEqual(
			expect.objectContaining({
				id: details.id,
				Last_Name: 'Envelope',
				Company: 'Shape Inc',
				Created_Time: details.Created_Time,
			}),
		);
		expect(stored.Created_By.id).toBe(details.Created_By.id);
	});

	it('v2 answers the same success envelope', async () => {
		const res = await call('POST', '/crm/v2/Leads', {
			body: { data: [{ Last_Name: 'V2 Envelope' }] },
		});
		expect(res.status).toBe(201);
		expect(res.body.data[0]).toEqual(
			expect.objectContaining({
				code: 'SUCCESS',
				duplicate_field: null,
				action: 'insert',
				message: 'record added',
				status: 'success',
			}),
		);
		expect(res.body.data[0].details.id).toMatch(ID);
	});

	it('answers one item per input in input order', async () => {
		const res = await call('POST', '/crm/v2.1/Leads', {
			body: {
				data: [{ Last_Name: 'Order-A' }, { Last_Name: 'Order-B' }, { Last_Name: 'Order-C' }],
			},
		});
		expect(res.status).toBe(201);
		const ids = res.body.data.map((i: any) => i.details.id);
		expect(new Set(ids).size).toBe(3);
		const names = await Promise.all(ids.map(async (id: string) => (await getLead(id)).Last_Name));
		expect(names).toEqual(['Order-A', 'Order-B', 'Order-C']);
	});

	it('mixed batch: 201 with a per-item MANDATORY_NOT_FOUND (json_path in v2.1)', async () => {
		const res = await call('POST', '/crm/v2.1/Leads', {
			body: { data: [{ Last_Name: 'Mixed OK' }, { First_Name: 'No Last Name' }] },
		});
		expect(res.status).toBe(201);
		expect(res.body.data).toHaveLength(2);
		expect(res.body.data[0].code).toBe('SUCCESS');
		expect(res.body.data[1]).toEqual({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'Last_Name', json_path: '$.data[1].Last_Name' },
			message: 'required field not found',
			status: 'error',
		});
		expect((await getLead(res.body.data[0].details.id)).Last_Name).toBe('Mixed OK');
	});

	it('mixed batch in v2: no json_path', async () => {
		const res = await call('POST', '/crm/v2/Leads', {
			body: { data: [{ First_Name: 'No Last Name' }, { Last_Name: 'Mixed OK v2' }] },
		});
		expect(res.status).toBe(201);
		expect(res.body.data[0]).toEqual({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'Last_Name' },
			message: 'required field not found',
			status: 'error',
		});
		expect(res.body.data[1].code).toBe('SUCCESS');
	});

	it('all items failed: 400 with the item list', async () => {
		const res = await call('POST', '/crm/v2.1/Leads', {
			body: { data: [{ Company: 'none' }, { Last_Name: 'x', Email: 'broken' }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.data).toHaveLength(2);
		expect(res.body.data[0]).toEqual(
			expect.objectContaining({ code: 'MANDATORY_NOT_FOUND', status: 'error' }),
		);
		expect(res.body.data[1]).toEqual(
			expect.objectContaining({
				code: 'INVALID_DATA',
				status: 'error',
				details: expect.objectContaining({ api_name: 'Email', expected_data_type: 'email' }),
			}),
		);
	});

	it('an unknown field answers a per-item INVALID_DATA', async () => {
		const res = await call('POST', '/crm/v2.1/Leads', {
			body: { data: [{ Last_Name: 'x', Not_A_Field: 1 }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.data[0].code).toBe('INVALID_DATA');
		expect(res.body.data[0].details.api_name).toBe('Not_A_Field');
	});

	it.each([
		['Leads', 'Email', 'not-an-email', 'email'],
		['Leads', 'No_of_Employees', 'many', 'integer'],
		['Leads', 'No_of_Employees', 12.5, 'integer'],
		['Leads', 'Last_Contacted_Date', '2024-13-01', 'date'],
		['Leads', 'Last_Contacted_Date', '2024-02-30', 'date'],
		['Leads', 'Follow_Up_Time', '2024-01-01 10:00', 'datetime'],
		['Leads', 'Follow_Up_Time', '2024-01-01', 'datetime'],
		['Leads', 'Lead_Source', 'Carrier Pigeon', 'picklist'],
		['Leads', 'Email_Opt_Out', 'yes', 'boolean'],
		['Contacts', 'Account_Name', { id: '4876876999999999999' }, 'lookup'],
	])('%s.%s = %j answers INVALID_DATA (%s)', async (module, field, value, expected) => {
		const res = await call('POST', `/crm/v2.1/${module}`, {
			body: { data: [{ Last_Name: 'Typed', [field]: value }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.data).toHaveLength(1);
		expect(res.body.data[0]).toEqual({
			code: 'INVALID_DATA',
			details: { api_name: field, expected_data_type: expected, json_path: `$.data[0].${field}` },
			message: expect.any(String),
			status: 'error',
		});
	});

	it('an over-long text value answers INVALID_DATA with maximum_length', async () => {
		const res = await call('POST', '/crm/v2.1/Leads', {
			body: { data: [{ Last_Name: 'x'.repeat(81) }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.data[0].code).toBe('INVALID_DATA');
		expect(res.body.data[0].details).toEqual(
			expect.objectContaining({ api_name: 'Last_Name', maximum_length: 80 }),
		);
	});

	it('valid typed values are stored in wire form', async () => {
		const account = (await call('GET', '/crm/v2.1/Accounts', { query: { per_page: 1 } })).body
			.data[0];
		const contact = await call('POST', '/crm/v2.1/Contacts', {
			body: {
				data: [
					{ Last_Name: 'Typed OK', Account_Name: { id: account.id }, Date_of_Birth: '1990-02-28' },
				],
			},
		});
		expect(contact.status).toBe(201);
		const stored = (await call('GET', `/crm/v2.1/Contacts/${contact.body.data[0].details.id}`)).body
			.data[0];
		expect(stored.Account_Name).toEqual({ id: account.id, name: account.Account_Name });
		expect(stored.Date_of_Birth).toBe('1990-02-28');

		const id = await createLead({
			No_of_Employees: '42',
			Follow_Up_Time: '2024-07-25T15:26:49+05:30',
			Last_Contacted_Date: '2024-06-10',
			Lead_Source: 'Web Download',
			Email_Opt_Out: true,
			Interests: ['CRM', 'ERP'],
		});
		const lead = await getLead(id);
		expect(lead.No_of_Employees).toBe(42);
		expect(lead.Follow_Up_Time).toBe('2024-07-25T09:56:49+00:00');
		expect(lead.Last_Contacted_Date).toBe('2024-06-10');
		expect(lead.Email_Opt_Out).toBe(true);
		expect(lead.Interests).toEqual(['CRM', 'ERP']);
		const z = await createLead({ Follow_Up_Time: '2024-07-25T09:56:49.123Z' });
		expect((await getLead(z)).Follow_Up_Time).toBe('2024-07-25T09:56:49+00:00');
	});

	it('a unique value already used answers DUPLICATE_DATA with the existing id', async () => {
		const email = `dup.${Date.now()}@example.com`;
		const existing = await createLead({ Email: email });
		for (const candidate of [email, email.toUpperCase()]) {
			const res = await call('POST', '/crm/v2.1/Leads', {
				body: { data: [{ Last_Name: 'Dup', Email: candidate }] },
			});
			expect(res.status).toBe(400);
			expect(res.body.data[0]).toEqual({
				code: 'DUPLICATE_DATA',
				details: expect.objectContaining({ api_name: 'Email', id: existing }),
				message: expect.any(String),
				status: 'error',
			});
		}
		// a duplicate inside one batch: the second item fails
		const other = `dup2.${Date.now()}@example.com`;
		const batch = await call('POST', '/crm/v2.1/Leads', {
			body: {
				data: [
					{ Last_Name: 'A', Email: other },
					{ Last_Name: 'B', Email: other },
				],
			},
		});
		expect(batch.status).toBe(201);
		expect(batch.body.data[0].code).toBe('SUCCESS');
		expect(batch.body.data[1].code).toBe('DUPLICATE_DATA');
		expect(batch.body.data[1].details.id).toBe(batch.body.data[0].details.id);
	});
});

describe('UpdateRecords / UpdateRecord', () => {
	it('PUT /{module} updates and changes Modified_Time', async () => {
		const id = await createLead({ Company: 'Before' });
		const before = await getLead(id);
		await advanceClock(2000);
		const res = await call('PUT', '/crm/v2.1/Leads', {
			body: { data: [{ id, Company: 'After' }] },
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(1);
		expect(res.body.data[0]).toEqual({
			code: 'SUCCESS',
			duplicate_field: null,
			action: 'update',
			details: expect.objectContaining({
				id,
				Modified_Time: expect.stringMatching(DATETIME),
				Created_Time: before.Created_Time,
			}),
			message: 'record updated',
			status: 'success',
		});
		const after = await getLead(id);
		expect(after.Company).toBe('After');
		expect(after.Created_Time).toBe(before.Created_Time);
		expect(Date.parse(after.Modified_Time)).toBeGreaterThan(Date.parse(before.Modified_Time));
		expect(after.Modified_Time).toBe(res.body.data[0].details.Modified_Time);
	});

	it('PUT /{module}/{id} updates one record', async () => {
		const id = await createLead({ City: 'Rome' });
		const res = await call('PUT', `/crm/v2/Leads/${id}`, { body: { data: [{ City: 'Milan' }] } });
		expect(res.status).toBe(200);
		expect(res.body.data[0].code).toBe('SUCCESS');
		expect(res.body.data[0].details.id).toBe(id);
		expect((await getLead(id)).City).toBe('Milan');
	});

	it('PUT /{module}/{id} takes exactly one item', async () => {
		const id = await createLead({});
		const res = await call('PUT', `/crm/v2.1/Leads/${id}`, {
			body: { data: [{ City: 'A' }, { City: 'B' }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('LIMIT_EXCEEDED');
		expect(res.body.details.limit).toBe(1);
	});

	it('an item without id answers MANDATORY_NOT_FOUND (api_name id)', async () => {
		const res = await call('PUT', '/crm/v2.1/Leads', { body: { data: [{ Company: 'No Id' }] } });
		expect(res.status).toBe(400);
		expect(res.body.data[0]).toEqual({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'id', json_path: '$.data[0].id' },
			message: expect.any(String),
			status: 'error',
		});
	});

	it('an unknown id answers INVALID_DATA with details.id', async () => {
		const res = await call('PUT', '/crm/v2.1/Leads', {
			body: { data: [{ id: '4876876999999999999', Company: 'Ghost' }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.data[0]).toEqual({
			code: 'INVALID_DATA',
			details: { id: '4876876999999999999' },
			message: 'the id given seems to be invalid',
			status: 'error',
		});
		const single = await call('PUT', '/crm/v2.1/Leads/4876876999999999999', {
			body: { data: [{ Company: 'Ghost' }] },
		});
		expect(single.status).toBe(400);
		expect(single.body.data[0].code).toBe('INVALID_DATA');
	});

	it('mixed update batch answers 200 with per-item results', async () => {
		const id = await createLead({});
		const res = await call('PUT', '/crm/v2.1/Leads', {
			body: {
				data: [
					{ id, Rating: 'Active' },
					{ id: '4876876999999999999', Rating: 'Active' },
					{ id, Email: 'bad' },
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.data.map((i: any) => i.code)).toEqual([
			'SUCCESS',
			'INVALID_DATA',
			'INVALID_DATA',
		]);
		expect(res.body.data[2].details).toEqual(
			expect.objectContaining({
				api_name: 'Email',
				expected_data_type: 'email',
				json_path: '$.data[2].Email',
			}),
		);
		expect((await getLead(id)).Rating).toBe('Active');
	});

	it('clearing a mandatory field answers MANDATORY_NOT_FOUND', async () => {
		const id = await createLead({});
		const res = await call('PUT', `/crm/v2.1/Leads/${id}`, { body: { data: [{ Last_Name: '' }] } });
		expect(res.status).toBe(400);
		expect(res.body.data[0].code).toBe('MANDATORY_NOT_FOUND');
		expect(res.body.data[0].details.api_name).toBe('Last_Name');
		expect((await getLead(id)).Last_Name).toBe('Test');
	});

	it('updating to a unique value of another record answers DUPLICATE_DATA', async () => {
		const email = `upd.dup.${Date.now()}@example.com`;
		const owner = await createLead({ Email: email });
		const other = await createLead({});
		const res = await call('PUT', `/crm/v2.1/Leads/${other}`, {
			body: { data: [{ Email: email }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.data[0].code).toBe('DUPLICATE_DATA');
		expect(res.body.data[0].details).toEqual(
			expect.objectContaining({ api_name: 'Email', id: owner }),
		);
		// re-saving a record's own unique value is fine
		const self = await call('PUT', `/crm/v2.1/Leads/${owner}`, {
			body: { data: [{ Email: email }] },
		});
		expect(self.status).toBe(200);
	});
});

describe('DeleteRecords / DeleteRecord', () => {
	it('DELETE /{module}?ids= deletes each record', async () => {
		const a = await createLead({});
		const b = await createLead({});
		const res = await call('DELETE', '/crm/v2.1/Leads', { query: { ids: `${a},${b}` } });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual([
			{ code: 'SUCCESS', details: { id: a }, message: 'record deleted', status: 'success' },
			{ code: 'SUCCESS', details: { id: b }, message: 'record deleted', status: 'success' },
		]);
		expect((await call('GET', `/crm/v2.1/Leads/${a}`)).status).toBe(204);
		expect((await call('GET', `/crm/v2.1/Leads/${b}`)).status).toBe(204);
	});

	it('ids is required: 400 REQUIRED_PARAM_MISSING details.param ids', async () => {
		const v21 = await call('DELETE', '/crm/v2.1/Leads');
		expect(v21.status).toBe(400);
		expect(v21.body.code).toBe('REQUIRED_PARAM_MISSING');
		expect(v21.body.details.param).toBe('ids');
		expect(v21.body.details.param_name).toBe('ids');
		const v2 = await call('DELETE', '/crm/v2/Leads');
		expect(v2.status).toBe(400);
		expect(v2.body).toEqual({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'ids' },
			message: expect.any(String),
			status: 'error',
		});
	});

	it('more than 100 ids answer 400 LIMIT_EXCEEDED', async () => {
		const ids = Array.from({ length: 101 }, (_, i) =>
			String(4876876000000000000n + BigInt(i)),
		).join(',');
		const res = await call('DELETE', '/crm/v2.1/Leads', { query: { ids } });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('LIMIT_EXCEEDED');
		expect(res.body.details.limit).toBe(100);
	});

	it('unknown ids answer per-item INVALID_DATA; mixed is 200', async () => {
		const a = await createLead({});
		const res = await call('DELETE', '/crm/v2.1/Leads', {
			query: { ids: `${a},4876876999999999999` },
		});
		expect(res.status).toBe(200);
		expect(res.body.data[0].code).toBe('SUCCESS');
		expect(res.body.data[1]).toEqual(
			expect.objectContaining({
				code: 'INVALID_DATA',
				status: 'error',
				details: { id: '4876876999999999999' },
			}),
		);
		const allFailed = await call('DELETE', '/crm/v2.1/Leads', {
			query: { ids: '4876876999999999999' },
		});
		expect(allFailed.status).toBe(400);
		expect(allFailed.body.data[0].code).toBe('INVALID_DATA');
	});

	it('DELETE /{module}/{id} deletes one record; a second delete fails', async () => {
		const id = await createLead({});
		const res = await call('DELETE', `/crm/v2/Leads/${id}`);
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual([
			{ code: 'SUCCESS', details: { id }, message: 'record deleted', status: 'success' },
		]);
		expect((await call('GET', `/crm/v2.1/Leads/${id}`)).status).toBe(204);
		const again = await call('DELETE', `/crm/v2/Leads/${id}`);
		expect(again.status).toBe(400);
		expect(again.body.data[0]).toEqual(
			expect.objectContaining({ code: 'INVALID_DATA', details: { id } }),
		);
	});

	it('a deletion counts as a change for If-Modified-Since', async () => {
		const latest = await call('GET', '/crm/v2.1/Vendors', {
			query: { sort_by: 'Modified_Time', sort_order: 'desc', per_page: 2 },
		});
		expect(latest.status).toBe(200);
		const since = latest.body.data[0].Modified_Time;
		expect(
			(await call('GET', '/crm/v2.1/Vendors', { headers: { 'If-Modified-Since': since } })).status,
		).toBe(304);
		await advanceClock(2000);
		const del = await call('DELETE', `/crm/v2.1/Vendors/${latest.body.data[1].id}`);
		expect(del.status).toBe(200);
		// something changed (a deletion), but no listed record was modified after `since`
		const after = await call('GET', '/crm/v2.1/Vendors', {
			headers: { 'If-Modified-Since': since },
		});
		expect(after.status).toBe(204);
		expect(after.body).toBeUndefined();
	});
});

describe('restart persistence', () => {
	it('records survive a restart on the same file and demo data is not seeded twice', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'crm-sandbox-test-'));
		const dbPath = join(dir, 'sandbox.db');
		try {
			const first = await startTestSandbox({ dbPath });
			let id: string;
			let leadCount: number;
			let accountCount: number;
			try {
				const tok = (await grantToken(first.url, { scope: 'CRM.modules.ALL' })).access_token;
				const created = await api(`${first.url}/crm/v2.1/Leads`, tok, {
					method: 'POST',
					body: {
						data: [{ Last_Name: 'Persistent', Company: 'Disk Co', External_Lead_ID: 'PERSIST-1' }],
					},
				});
				expect(created.status).toBe(201);
				id = created.body.data[0].details.id;
				leadCount = (await allRecords(first.url, tok, 'Leads')).length;
				accountCount = (await allRecords(first.url, tok, 'Accounts')).length;
				expect(leadCount).toBeGreaterThan(1);
			} finally {
				await first.close();
			}

			const second = await startTestSandbox({ dbPath });
			try {
				const tok = (await grantToken(second.url, { scope: 'CRM.modules.ALL' })).access_token;
				const read = await api(`${second.url}/crm/v2.1/Leads/${id}`, tok);
				expect(read.status).toBe(200);
				expect(read.body.data[0]).toEqual(
					expect.objectContaining({ id, Last_Name: 'Persistent', Company: 'Disk Co' }),
				);
				const leads = await allRecords(second.url, tok, 'Leads');
				expect(leads).toHaveLength(leadCount);
				expect(leads.filter((r) => r.External_Lead_ID === 'LEAD-0001')).toHaveLength(1);
				expect(await allRecords(second.url, tok, 'Accounts')).toHaveLength(accountCount);
				// new ids continue after the stored ones
				const next = await api(`${second.url}/crm/v2.1/Leads`, tok, {
					method: 'POST',
					body: { data: [{ Last_Name: 'After Restart' }] },
				});
				expect(next.status).toBe(201);
				expect(BigInt(next.body.data[0].details.id)).toBeGreaterThan(BigInt(id));
			} finally {
				await second.close();
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
