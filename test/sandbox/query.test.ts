// Contract tests of Query (docs/protocol.md §5.12, §3.13, §2.3 scopes, §11.5 errors) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.coql.READ,CRM.modules.ALL' });

const coql = async (selectQuery: unknown, options: { v?: string; tok?: string } = {}) =>
	await api(`${sb.url}/crm/${options.v ?? 'v2.1'}/coql`, options.tok ?? sb.token, {
		method: 'POST',
		body: { select_query: selectQuery },
	});

describe('Query', () => {
	test.each(['v2', 'v2.1'])('%s: 200 with data and info {count, more_records}', async (v) => {
		const res = await coql(
			'SELECT Last_Name, Email FROM Leads WHERE Last_Name is not null LIMIT 3',
			{ v },
		);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
		expect(Object.keys(res.body).sort()).toEqual(['data', 'info']);
		expect(res.body.info).toEqual({ count: 3, more_records: true });
		expect(res.body.data).toHaveLength(3);
		for (const row of res.body.data) {
			expect(Object.keys(row).sort()).toEqual(['Email', 'Last_Name', 'id']);
			expect(row.id).toMatch(/^\d{19}$/);
		}
	});

	test('no rows: 204 with an empty body', async () => {
		const res = await coql("SELECT Last_Name FROM Leads WHERE Last_Name = 'Nobody By This Name'");
		expect(res.status).toBe(204);
		expect(res.body).toBeUndefined();
		expect(res.headers.get('content-type')).toBeNull();
	});

	test('LIMIT offset, count pages cover every matching record exactly once', async () => {
		const statement = 'SELECT Last_Name FROM Contacts WHERE Last_Name is not null';
		const seen: string[] = [];
		for (let offset = 0; ; offset += 25) {
			const res = await coql(`${statement} LIMIT ${offset}, 25`);
			if (res.status === 204) break;
			seen.push(...res.body.data.map((r: any) => r.id));
			if (!res.body.info.more_records) break;
		}
		const whole = await coql(`${statement} LIMIT 200`);
		expect(whole.body.info.more_records).toBe(false);
		expect(seen).toEqual(whole.body.data.map((r: any) => r.id));
		expect(new Set(seen).size).toBe(seen.length);
	});

	test('errors are top-level 400 envelopes with the §3.13 details', async () => {
		const syntax = await coql('select Last_Name form Leads');
		expect(syntax.status).toBe(400);
		expect(syntax.body).toEqual({
			code: 'SYNTAX_ERROR',
			details: { near: 'form', line: 1, column: 18, clause: 'from' },
			message: 'error while parsing the query',
			status: 'error',
		});
		const limit = await coql("SELECT Last_Name FROM Leads WHERE Last_Name = 'x' LIMIT 500");
		expect(limit.status).toBe(400);
		expect(limit.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { by: 'limit', limit: 200 },
			status: 'error',
		});
		const module = await coql("SELECT Name FROM Widgets WHERE Name = 'x'");
		expect(module.status).toBe(400);
		expect(module.body).toMatchObject({ code: 'INVALID_MODULE', details: { module: 'Widgets' } });
		const query = await coql("SELECT Last_Name FROM Leads WHERE Description = 'x'");
		expect(query.body).toMatchObject({
			code: 'INVALID_QUERY',
			details: { column_name: 'Description' },
		});
	});

	test('body problems: missing or empty select_query, not a string, not JSON', async () => {
		const missing = await api(`${sb.url}/crm/v2.1/coql`, sb.token, { method: 'POST', body: {} });
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'select_query' },
		});
		expect((await coql('  ')).body).toMatchObject({ code: 'MANDATORY_NOT_FOUND' });
		expect((await coql(42)).body).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'select_query', expected_data_type: 'string' },
		});
		const notJson = await api(`${sb.url}/crm/v2.1/coql`, sb.token, {
			method: 'POST',
			body: '{nope',
			headers: { 'Content-Type': 'application/json' },
		});
		expect(notJson.status).toBe(400);
		expect(notJson.body.code).toBe('INVALID_DATA');
	});

	test('wrong method: 400 INVALID_REQUEST_METHOD', async () => {
		const res = await api(`${sb.url}/crm/v2.1/coql`, sb.token);
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_REQUEST_METHOD');
	});
});

describe('Query scopes (§2.3): CRM.coql.READ and a read scope of the queried module', () => {
	const tokenFor = async (scope: string) => (await grantToken(sb.url, { scope })).access_token;

	test('module scope needed besides CRM.coql.READ', async () => {
		const coqlOnly = await tokenFor('CRM.coql.READ');
		const res = await coql("SELECT Last_Name FROM Leads WHERE Last_Name = 'x'", { tok: coqlOnly });
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
		// a statement that does not parse answers its own error
		const syntax = await coql('SELECT Last_Name form Leads', { tok: coqlOnly });
		expect(syntax.status).toBe(400);
		expect(syntax.body.code).toBe('SYNTAX_ERROR');
	});

	test('a module read scope covers that module only; custom modules map to `custom`', async () => {
		const leadsOnly = await tokenFor('CRM.coql.READ,CRM.modules.leads.READ');
		expect(
			(await coql("SELECT Last_Name FROM leads WHERE Last_Name = 'x'", { tok: leadsOnly })).status,
		).toBe(204);
		expect(
			(await coql("SELECT Last_Name FROM Contacts WHERE Last_Name = 'x'", { tok: leadsOnly }))
				.status,
		).toBe(401);
		const custom = await tokenFor('CRM.coql.READ,CRM.modules.custom.READ');
		expect(
			(await coql('SELECT Name FROM Projects WHERE Name is not null LIMIT 1', { tok: custom }))
				.status,
		).toBe(200);
	});

	test('CRM.modules.ALL without CRM.coql.READ is refused', async () => {
		const modulesOnly = await tokenFor('CRM.modules.ALL');
		const res = await coql("SELECT Last_Name FROM Leads WHERE Last_Name = 'x'", {
			tok: modulesOnly,
		});
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});
