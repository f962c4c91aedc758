// Malformed HTTP against the sandbox: bad JSON, bodies over the limit, wrong content types, path
// traversal in URLs, file ids and upload file names, malformed percent-encoding, bad query values.
// Each answer is the contract's error envelope (§11) with its status (§12), and the sandbox keeps
// serving: a health check and a real API call succeed after every case.
import { request } from 'node:http';

import { grantToken, startTestSandbox } from '../harness/sandbox';
import type { RunningSandbox } from '../harness/sandbox';

const BODY_LIMIT = 256 * 1024;

let sb: RunningSandbox;
let token: string;

beforeAll(async () => {
	sb = await startTestSandbox({ maxBodyBytes: BODY_LIMIT, maxFileBytes: 64 * 1024 });
	token = (
		await grantToken(sb.url, {
			scope: 'CRM.modules.ALL,CRM.settings.ALL,CRM.files.ALL,CRM.bulk.ALL,CRM.notifications.ALL',
		})
	).access_token;
});
afterAll(async () => await sb.close());

/**
 * One request on its own connection (no keep-alive reuse after a refused body), the path sent as
 * given; the token goes in `Authorization` unless a header given empty removes it.
 */
async function raw(
	method: string,
	path: string,
	headers: Record<string, string> = {},
	body?: string | Buffer,
): Promise<{ status: number; body: any; text: string }> {
	const all = Object.fromEntries(
		Object.entries({ Authorization: `Bearer ${token}`, ...headers }).filter(([, v]) => v !== ''),
	);
	return await new Promise((resolve, reject) => {
		const req = request(`${sb.url}${path}`, { method, agent: false, headers: all }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let parsed: unknown;
				try {
					parsed = JSON.parse(text);
				} catch {
					parsed = undefined;
				}
				resolve({ status: res.statusCode ?? 0, body: parsed, text });
			});
		});
		// the sandbox may answer (413) and close before a huge body is fully written
		req.on('error', (error) =>
			String(error).includes('EPIPE') || String(error).includes('ECONNRESET')
				? undefined
				: reject(error),
		);
		if (body !== undefined) req.write(body);
		req.end();
	});
}

const multipart = (disposition: string, content = 'hello') =>
	`--XB\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--XB--\r\n`;

interface Case {
	name: string;
	method: string;
	path: string;
	headers?: Record<string, string>;
	body?: string | Buffer | (() => string | Buffer);
	status: number;
	code: string;
	/** extra check of the answer */
	check?: (body: any) => void;
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const CASES: Case[] = [
	{
		name: 'truncated JSON',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: '{"data": [{"Last_Name": ',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'JSON array instead of an object',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: '[{"Last_Name": "x"}]',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'JSON null',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: 'null',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'empty body on a write',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: '',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: '`data` of the wrong type',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: '{"data": "Last_Name"}',
		status: 400,
		code: 'INVALID_DATA',
		check: (b) => expect(b.details).toEqual({ api_name: 'data', expected_data_type: 'jsonarray' }),
	},
	{
		name: 'over-limit list (101 records)',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: () =>
			JSON.stringify({ data: Array.from({ length: 101 }, (_, i) => ({ Last_Name: `L${i}` })) }),
		status: 400,
		code: 'LIMIT_EXCEEDED',
	},
	{
		name: 'deeply nested JSON',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: () => `{"data":[${'['.repeat(50_000)}${']'.repeat(50_000)}]}`,
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'XML content type',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: { 'Content-Type': 'application/xml' },
		body: '<data><Last_Name>x</Last_Name></data>',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'form content type on a JSON route',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		body: 'Last_Name=x',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'multipart without a boundary',
		method: 'POST',
		path: '/crm/v2.1/files',
		headers: { 'Content-Type': 'multipart/form-data' },
		body: 'x',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'multipart without a file part',
		method: 'POST',
		path: '/crm/v2.1/files',
		headers: { 'Content-Type': 'multipart/form-data; boundary=XB' },
		body: '--XB\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--XB--\r\n',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'JSON to an upload route',
		method: 'POST',
		path: '/crm/v2.1/files',
		headers: JSON_TYPE,
		body: '{"file": "x"}',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'body over the request limit',
		method: 'POST',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: () => Buffer.alloc(BODY_LIMIT * 4, 0x20),
		status: 413,
		code: 'FILE_SIZE_MORE_THAN_ALLOWED_SIZE',
	},
	{
		name: 'file over the per-file limit',
		method: 'POST',
		path: '/crm/v2.1/files',
		headers: { 'Content-Type': 'multipart/form-data; boundary=XB' },
		body: () => multipart('filename="big.txt"', 'x'.repeat(100 * 1024)),
		status: 413,
		code: 'FILE_SIZE_MORE_THAN_ALLOWED_SIZE',
	},
	{
		name: 'malformed percent-encoded file name',
		method: 'POST',
		path: '/crm/v2.1/files',
		headers: { 'Content-Type': 'multipart/form-data; boundary=XB' },
		body: multipart("filename*=UTF-8''%E0%A4%A"),
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'path traversal in the URL (encoded)',
		method: 'GET',
		path: '/crm/v2.1/%2e%2e/%2e%2e/etc/passwd',
		status: 404,
		code: 'INVALID_URL_PATTERN',
	},
	{
		name: 'path traversal in the URL (raw)',
		method: 'GET',
		path: '/crm/v2.1/../../../etc/passwd',
		status: 404,
		code: 'INVALID_URL_PATTERN',
	},
	{
		name: 'path traversal in a record id',
		method: 'GET',
		path: '/crm/v2.1/Leads/..%2F..%2Fetc%2Fpasswd',
		status: 404,
		code: 'INVALID_URL_PATTERN',
	},
	{
		name: 'path traversal in a file id',
		method: 'GET',
		path: '/crm/v2.1/files?id=../../etc/passwd',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'malformed percent-encoding in the path',
		method: 'GET',
		path: '/crm/v2.1/Leads/%E0%A4%A',
		status: 404,
		code: 'INVALID_URL_PATTERN',
	},
	{
		name: 'unknown module',
		method: 'GET',
		path: '/crm/v2.1/No_Such_Module',
		status: 400,
		code: 'INVALID_MODULE',
	},
	{
		name: 'wrong method',
		method: 'PATCH',
		path: '/crm/v2.1/Leads',
		headers: JSON_TYPE,
		body: '{"data": []}',
		status: 400,
		code: 'INVALID_REQUEST_METHOD',
	},
	{
		name: 'malformed ids',
		method: 'GET',
		path: '/crm/v2.1/Leads?ids=abc,123',
		status: 400,
		code: 'INVALID_DATA',
		check: (b) => expect(b.details.param_name).toBe('ids'),
	},
	{
		name: 'per_page over 200',
		method: 'GET',
		path: '/crm/v2.1/Leads?per_page=100000',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'negative page',
		method: 'GET',
		path: '/crm/v2.1/Leads?page=-1',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'bulk read with unreadable JSON',
		method: 'POST',
		path: '/crm/bulk/v2.1/read',
		headers: JSON_TYPE,
		body: '{"query": ',
		status: 400,
		code: 'REQUEST_BODY_NOT_READABLE',
	},
	{
		name: 'watch with a non-list',
		method: 'POST',
		path: '/crm/v2.1/actions/watch',
		headers: JSON_TYPE,
		body: '{"watch": {"channel_id": "1"}}',
		status: 400,
		code: 'INVALID_DATA',
	},
	{
		name: 'no token',
		method: 'GET',
		path: '/crm/v2.1/Leads',
		headers: { Authorization: '' },
		status: 401,
		code: 'INVALID_TOKEN',
	},
	{
		name: 'garbage token',
		method: 'GET',
		path: '/crm/v2.1/Leads',
		headers: { Authorization: 'Bearer ../../etc/passwd' },
		status: 401,
		code: 'INVALID_TOKEN',
	},
];

describe('bad input › the sandbox answers malformed HTTP with the contract errors and stays up', () => {
	const tried: string[] = [];
	afterAll(() =>
		console.log(
			`sandbox bad input: inputs tried: ${tried.length}, each answered with its contract error; the sandbox stayed up`,
		),
	);

	test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const body = typeof c.body === 'function' ? c.body() : c.body;
		const res = await raw(c.method, c.path, c.headers, body);
		expect({ status: res.status, code: res.body?.code, status_field: res.body?.status }).toEqual({
			status: c.status,
			code: c.code,
			status_field: 'error',
		});
		expect(typeof res.body.message).toBe('string');
		expect(res.body.details).toEqual(expect.any(Object));
		c.check?.(res.body);
		// still serving
		expect((await raw('GET', '/__sandbox/health')).status).toBe(200);
		expect((await raw('GET', '/crm/v2.1/Leads?per_page=1')).status).toBe(200);
		tried.push(c.name);
	});

	test('an upload whose file name climbs directories is stored under its base name only', async () => {
		const res = await raw(
			'POST',
			'/crm/v2.1/files',
			{ 'Content-Type': 'multipart/form-data; boundary=XB' },
			multipart('filename="../../../etc/passwd"'),
		);
		expect(res.status).toBe(201);
		expect(res.body.data[0].details.name).toBe('passwd');
		const windows = await raw(
			'POST',
			'/crm/v2.1/files',
			{ 'Content-Type': 'multipart/form-data; boundary=XB' },
			multipart('filename="..\\\\..\\\\boot.ini"'),
		);
		expect(windows.body.data[0].details.name).toBe('boot.ini');
		const download = await raw('GET', `/crm/v2.1/files?id=${res.body.data[0].details.id}`);
		expect(download.status).toBe(200);
		expect(download.text).toBe('hello');
		tried.push('traversal file names (2)');
	});
});
