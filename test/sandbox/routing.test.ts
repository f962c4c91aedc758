// Contract tests of the sandbox router and request conventions (docs/protocol.md §3.1, §3.10, §11, §12) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL,CRM.settings.ALL' });

const JSON_CT = 'application/json;charset=UTF-8';
const MESSAGES: Record<string, string> = {
	INVALID_TOKEN: 'invalid oauth token',
	INVALID_URL_PATTERN: 'Please check if the URL trying to access is a correct one',
	INVALID_REQUEST_METHOD: 'The http request method type is not a valid one',
	INVALID_MODULE: 'the module name given seems to be invalid',
};

interface Row {
	method: string;
	url: string;
	status: number;
	code: string;
	details?: Record<string, unknown>;
	/** Authorization header to send instead of the valid Bearer token ('' = none) */
	auth?: string;
	body?: unknown;
}

const rows: Row[] = [
	// unknown module: 400 INVALID_MODULE; resource_path_index in v2.1 only (§11.1)
	{
		method: 'GET',
		url: '/crm/v2.1/Foo',
		status: 400,
		code: 'INVALID_MODULE',
		details: { resource_path_index: 0 },
	},
	{ method: 'GET', url: '/crm/v2/Foo', status: 400, code: 'INVALID_MODULE', details: {} },
	{
		method: 'GET',
		url: '/crm/v2.1/Foo/4876876000000611001',
		status: 400,
		code: 'INVALID_MODULE',
		details: { resource_path_index: 0 },
	},
	{
		method: 'GET',
		url: '/crm/v2/Foo/4876876000000611001',
		status: 400,
		code: 'INVALID_MODULE',
		details: {},
	},
	{
		method: 'POST',
		url: '/crm/v2.1/Widgets',
		status: 400,
		code: 'INVALID_MODULE',
		details: { resource_path_index: 0 },
		body: { data: [{ Name: 'x' }] },
	},
	{
		method: 'DELETE',
		url: '/crm/v2.1/Foo?ids=1',
		status: 400,
		code: 'INVALID_MODULE',
		details: { resource_path_index: 0 },
	},
	// unknown route: 404 INVALID_URL_PATTERN
	{
		method: 'GET',
		url: '/crm/v2.1/Leads/4876876000000611001/a/b/c/d',
		status: 404,
		code: 'INVALID_URL_PATTERN',
		details: {},
	},
	{
		method: 'GET',
		url: '/crm/v2/settings/nothing_here',
		status: 404,
		code: 'INVALID_URL_PATTERN',
		details: {},
	},
	{
		method: 'GET',
		url: '/crm/v2.1/settings',
		status: 404,
		code: 'INVALID_URL_PATTERN',
		details: {},
	},
	{ method: 'GET', url: '/crm/v3/Leads', status: 404, code: 'INVALID_URL_PATTERN', details: {} },
	{ method: 'GET', url: '/api/Leads', status: 404, code: 'INVALID_URL_PATTERN', details: {} },
	{
		method: 'GET',
		url: '/crm/v2.1/Leads/not-a-number',
		status: 404,
		code: 'INVALID_URL_PATTERN',
		details: {},
	},
	// matching route, wrong method: 400 INVALID_REQUEST_METHOD
	{
		method: 'PATCH',
		url: '/crm/v2.1/Leads',
		status: 400,
		code: 'INVALID_REQUEST_METHOD',
		details: {},
	},
	{
		method: 'PATCH',
		url: '/crm/v2/Leads',
		status: 400,
		code: 'INVALID_REQUEST_METHOD',
		details: {},
	},
	{
		method: 'POST',
		url: '/crm/v2.1/Leads/4876876000000611001',
		status: 400,
		code: 'INVALID_REQUEST_METHOD',
		details: {},
		body: { data: [{}] },
	},
	{
		method: 'POST',
		url: '/crm/v2.1/settings/modules',
		status: 400,
		code: 'INVALID_REQUEST_METHOD',
		details: {},
		body: { modules: [{}] },
	},
	{
		method: 'DELETE',
		url: '/crm/v2.1/settings/fields?module=Leads',
		status: 400,
		code: 'INVALID_REQUEST_METHOD',
		details: {},
	},
	// missing or invalid token: 401 INVALID_TOKEN
	{
		method: 'GET',
		url: '/crm/v2.1/Leads',
		status: 401,
		code: 'INVALID_TOKEN',
		details: {},
		auth: '',
	},
	{
		method: 'GET',
		url: '/crm/v2/Leads',
		status: 401,
		code: 'INVALID_TOKEN',
		details: {},
		auth: '',
	},
	{
		method: 'GET',
		url: '/crm/v2.1/Leads',
		status: 401,
		code: 'INVALID_TOKEN',
		details: {},
		auth: 'Bearer at.not-a-token',
	},
	{
		method: 'GET',
		url: '/crm/v2.1/Leads',
		status: 401,
		code: 'INVALID_TOKEN',
		details: {},
		auth: 'Bearer',
	},
	{
		method: 'GET',
		url: '/crm/v2.1/Leads',
		status: 401,
		code: 'INVALID_TOKEN',
		details: {},
		auth: 'Basic dGVzdDp0ZXN0',
	},
	{
		method: 'GET',
		url: '/crm/v2.1/settings/modules',
		status: 401,
		code: 'INVALID_TOKEN',
		details: {},
		auth: 'Bearer nope',
	},
	{
		method: 'POST',
		url: '/crm/v2.1/Leads',
		status: 401,
		code: 'INVALID_TOKEN',
		details: {},
		auth: '',
		body: { data: [{ Last_Name: 'x' }] },
	},
	{
		method: 'DELETE',
		url: '/crm/v2.1/Leads?ids=1',
		status: 401,
		code: 'INVALID_TOKEN',
		details: {},
		auth: 'Bearer x.y',
	},
];

describe('routing errors (table)', () => {
	it.each(rows)('$method $url → $status $code', async (row) => {
		const headers: Record<string, string> = {};
		if (row.auth !== undefined) headers.Authorization = row.auth;
		const res = await api(`${sb.url}${row.url}`, sb.token, {
			method: row.method,
			headers,
			body: row.body,
		});
		expect(res.status).toBe(row.status);
		expect(res.headers.get('content-type')).toBe(JSON_CT);
		expect(res.body.code).toBe(row.code);
		expect(res.body.status).toBe('error');
		if (MESSAGES[row.code]) expect(res.body.message).toBe(MESSAGES[row.code]);
		if (row.details) expect(res.body.details).toEqual(row.details);
		expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'message', 'status']);
	});
});

describe('module names and roots (§1.2, §3.10)', () => {
	it.each(['/crm/v2', '/crm/v2.1'])('%s serves records', async (root) => {
		const res = await api(`${sb.url}${root}/Leads`, sb.token, { query: { per_page: 3 } });
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(3);
		expect(res.body.info).toEqual(
			expect.objectContaining({ per_page: 3, count: 3, page: 1, more_records: true }),
		);
	});

	it.each(['leads', 'LEADS', 'lEaDs'])(
		'module name %s resolves case-insensitively',
		async (name) => {
			const canonical = await api(`${sb.url}/crm/v2/Leads`, sb.token, { query: { per_page: 5 } });
			const res = await api(`${sb.url}/crm/v2/${name}`, sb.token, { query: { per_page: 5 } });
			expect(res.status).toBe(200);
			expect(res.body.data.map((r: any) => r.id)).toEqual(
				canonical.body.data.map((r: any) => r.id),
			);
		},
	);

	it('lower-case module paths answer canonical names in write results and reads', async () => {
		const create = await api(`${sb.url}/crm/v2/sales_orders`, sb.token, {
			method: 'GET',
			query: { per_page: 1 },
		});
		expect([200, 204]).toContain(create.status);
		const created = await api(`${sb.url}/crm/v2.1/leads`, sb.token, {
			method: 'POST',
			body: { data: [{ Last_Name: 'Lowercase' }] },
		});
		expect(created.status).toBe(201);
		const id = created.body.data[0].details.id;
		const read = await api(`${sb.url}/crm/v2.1/LEADS/${id}`, sb.token);
		expect(read.status).toBe(200);
		expect(read.body.data[0].id).toBe(id);
		expect(read.body.data[0].Last_Name).toBe('Lowercase');
		const module = await api(`${sb.url}/crm/v2/settings/modules/leads`, sb.token);
		expect(module.status).toBe(200);
		expect(module.body.modules[0].api_name).toBe('Leads');
		const fields = await api(`${sb.url}/crm/v2/settings/fields`, sb.token, {
			query: { module: 'leads' },
		});
		expect(fields.status).toBe(200);
		expect(fields.body.fields.some((f: any) => f.api_name === 'Last_Name')).toBe(true);
	});

	it('reserved first segments are not modules', async () => {
		const res = await api(`${sb.url}/crm/v2.1/settings/modules`, sb.token);
		expect(res.status).toBe(200);
		expect(Array.isArray(res.body.modules)).toBe(true);
	});
});

describe('request bodies (§3.1)', () => {
	const post = async (
		body: unknown,
		headers: Record<string, string> = {},
		path = '/crm/v2.1/Leads',
	) => await api(`${sb.url}${path}`, sb.token, { method: 'POST', body, headers });

	it('a body that is not JSON answers 400 INVALID_DATA', async () => {
		const res = await post('{"data": [', { 'Content-Type': 'application/json' });
		expect(res.status).toBe(400);
		expect(res.headers.get('content-type')).toBe(JSON_CT);
		expect(res.body).toEqual(
			expect.objectContaining({ code: 'INVALID_DATA', status: 'error', details: {} }),
		);
	});

	it('an empty body answers 400 INVALID_DATA', async () => {
		const res = await post('', { 'Content-Type': 'application/json' });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_DATA');
	});

	it('a JSON array body answers 400 INVALID_DATA', async () => {
		const res = await post('[{"Last_Name":"x"}]', { 'Content-Type': 'application/json' });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_DATA');
	});

	it('a body without the wrapper key answers 400 MANDATORY_NOT_FOUND (api_name data)', async () => {
		const res = await post({ records: [{ Last_Name: 'x' }] });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'data' },
			message: expect.any(String),
			status: 'error',
		});
	});

	it('the settings wrapper key is named in details too', async () => {
		const res = await api(`${sb.url}/crm/v2.1/settings/modules/Leads`, sb.token, {
			method: 'PUT',
			body: { data: [{ plural_label: 'x' }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('MANDATORY_NOT_FOUND');
		expect(res.body.details).toEqual({ api_name: 'modules' });
	});

	it('an empty wrapper list answers 400 MANDATORY_NOT_FOUND', async () => {
		const res = await post({ data: [] });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('MANDATORY_NOT_FOUND');
		expect(res.body.details.api_name).toBe('data');
	});

	it('101 items answer 400 LIMIT_EXCEEDED with details.limit 100 and nothing is created', async () => {
		const marker = `Limit${Date.now()}`;
		const items = Array.from({ length: 101 }, (_, i) => ({ Last_Name: `${marker}-${i}` }));
		const res = await post({ data: items });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('LIMIT_EXCEEDED');
		expect(res.body.details).toEqual(expect.objectContaining({ limit: 100 }));
		expect(res.body.status).toBe('error');
		expect(res.body.data).toBeUndefined();
		const search = await api(`${sb.url}/crm/v2.1/Leads`, sb.token, {
			query: { sort_by: 'Created_Time', per_page: 200 },
		});
		expect(search.body.data.some((r: any) => String(r.Last_Name).startsWith(marker))).toBe(false);
	});

	it('100 items are accepted', async () => {
		const items = Array.from({ length: 100 }, (_, i) => ({ Last_Name: `Hundred-${i}` }));
		const res = await post({ data: items });
		expect(res.status).toBe(201);
		expect(res.body.data).toHaveLength(100);
		expect(res.body.data.every((i: any) => i.code === 'SUCCESS')).toBe(true);
	});

	it('a wrapper key that is not a list answers 400 INVALID_DATA', async () => {
		const res = await post({ data: { Last_Name: 'x' } });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_DATA');
		expect(res.body.details.api_name).toBe('data');
	});

	it('accepts JSON without a Content-Type header', async () => {
		const bytes = new TextEncoder().encode(
			JSON.stringify({ data: [{ Last_Name: 'NoContentType' }] }),
		);
		const res = await post(bytes);
		expect(res.status).toBe(201);
		const id = res.body.data[0].details.id;
		const read = await api(`${sb.url}/crm/v2.1/Leads/${id}`, sb.token);
		expect(read.body.data[0].Last_Name).toBe('NoContentType');
	});

	it('accepts JSON sent as text/plain', async () => {
		const res = await post(JSON.stringify({ data: [{ Last_Name: 'TextPlain' }] }), {
			'Content-Type': 'text/plain;charset=UTF-8',
		});
		expect(res.status).toBe(201);
		const id = res.body.data[0].details.id;
		const read = await api(`${sb.url}/crm/v2.1/Leads/${id}`, sb.token);
		expect(read.body.data[0].Last_Name).toBe('TextPlain');
	});

	it('accepts application/json with a charset', async () => {
		const res = await post(JSON.stringify({ data: [{ Last_Name: 'Charset' }] }), {
			'Content-Type': 'application/json; charset=utf-8',
		});
		expect(res.status).toBe(201);
		expect(res.body.data[0].code).toBe('SUCCESS');
	});

	it('accepts ids as JSON numbers or strings in bodies', async () => {
		const created = await post({ data: [{ Last_Name: 'NumericId' }] });
		const id: string = created.body.data[0].details.id;
		// a 19-digit id cannot be a JS number; send it as a raw JSON number token
		const raw = `{"data":[{"id":${id},"Company":"Numeric Co"}]}`;
		const res = await api(`${sb.url}/crm/v2.1/Leads`, sb.token, {
			method: 'PUT',
			body: raw,
			headers: { 'Content-Type': 'application/json' },
		});
		expect(res.status).toBe(200);
		expect(res.body.data[0].code).toBe('SUCCESS');
		expect(res.body.data[0].details.id).toBe(id);
		const read = await api(`${sb.url}/crm/v2.1/Leads/${id}`, sb.token);
		expect(read.body.data[0].Company).toBe('Numeric Co');
	});
});

describe('response envelopes (§3.5, §3.7)', () => {
	it('JSON answers carry Content-Type application/json;charset=UTF-8', async () => {
		const read = await api(`${sb.url}/crm/v2.1/Leads`, sb.token, { query: { per_page: 1 } });
		expect(read.headers.get('content-type')).toBe(JSON_CT);
		const modules = await api(`${sb.url}/crm/v2/settings/modules`, sb.token);
		expect(modules.headers.get('content-type')).toBe(JSON_CT);
		const created = await api(`${sb.url}/crm/v2.1/Leads`, sb.token, {
			method: 'POST',
			body: { data: [{ Last_Name: 'Ct' }] },
		});
		expect(created.headers.get('content-type')).toBe(JSON_CT);
	});

	it('204 answers have no body and no Content-Type', async () => {
		const res = await api(`${sb.url}/crm/v2.1/Leads/4876876999999999999`, sb.token);
		expect(res.status).toBe(204);
		expect(res.body).toBeUndefined();
		expect(res.headers.get('content-type')).toBeNull();
	});

	it('ids on the wire are strings', async () => {
		const res = await api(`${sb.url}/crm/v2.1/Leads`, sb.token, { query: { per_page: 5 } });
		for (const record of res.body.data) {
			expect(typeof record.id).toBe('string');
			expect(record.id).toMatch(/^\d{19}$/);
			expect(typeof record.Owner.id).toBe('string');
		}
	});
});
