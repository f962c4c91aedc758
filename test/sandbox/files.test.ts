// Contract tests of the shared file store (docs/protocol.md §5.13, §3.3, §3.4, §6) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.files.ALL', sandbox: { maxFileBytes: 64 * 1024 } });

async function upload(
	files: Array<{ name: string; data: string | Uint8Array; type?: string }>,
	tok = sb.token,
	query = '?type=inline',
) {
	const form = new FormData();
	for (const f of files)
		form.append(
			'file',
			new Blob(
				[typeof f.data === 'string' ? f.data : new Uint8Array(f.data)],
				f.type ? { type: f.type } : {},
			),
			f.name,
		);
	const res = await fetch(`${sb.url}/crm/v2.1/files${query}`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${tok}` },
		body: form,
	});
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('UploadFiles', () => {
	test('stores 1..10 files and answers one item per file (201, uploaded successfully)', async () => {
		const res = await upload([
			{ name: 'notes.txt', data: 'hello world', type: 'text/plain' },
			{ name: 'résumé.pdf', data: new Uint8Array([37, 80, 68, 70, 0, 255]) },
		]);
		expect(res.status).toBe(201);
		expect(res.body.data).toHaveLength(2);
		expect(res.body.data[0]).toMatchObject({
			code: 'SUCCESS',
			status: 'success',
			message: 'uploaded successfully',
			details: { name: 'notes.txt' },
		});
		expect(res.body.data[0].details.id).toMatch(/^[0-9a-f]{64}$/);
		expect(res.body.data[1].details.name).toBe('résumé.pdf');
		// GET /files?id= answers the stored bytes, type and name
		const stored = await fetch(`${sb.url}/crm/v2.1/files?id=${res.body.data[1].details.id}`, {
			headers: { Authorization: `Bearer ${sb.token}` },
		});
		expect(stored.status).toBe(200);
		expect(stored.headers.get('content-type')).toBe('application/pdf');
		expect(stored.headers.get('content-disposition')).toBe(
			"attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
		);
		expect(Buffer.from(await stored.arrayBuffer())).toEqual(Buffer.from([37, 80, 68, 70, 0, 255]));
	});

	test('type is optional; other values are refused', async () => {
		expect((await upload([{ name: 'a.txt', data: 'a' }], sb.token, '')).status).toBe(201);
		const bad = await upload([{ name: 'a.txt', data: 'a' }], sb.token, '?type=attachment');
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('INVALID_DATA');
	});

	test('no file part: 400 INVALID_DATA; more than 10: 400 LIMIT_EXCEEDED', async () => {
		const none = await upload([]);
		expect(none.status).toBe(400);
		expect(none.body).toMatchObject({
			code: 'INVALID_DATA',
			message: 'the request does not contain any file',
			status: 'error',
		});
		const many = await upload(
			Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: `file ${i}` })),
		);
		expect(many.status).toBe(400);
		expect(many.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 10 } });
	});

	test('a file over the size limit: 413 FILE_SIZE_MORE_THAN_ALLOWED_SIZE, nothing stored', async () => {
		// the service has no list of files: the documented storage hook counts them (docs/protocol.md §14)
		const storage = async () => (await api(`${sb.url}/__sandbox/storage`)).body;
		const before = await storage();
		const res = await upload([
			{ name: 'ok.txt', data: 'x' },
			{ name: 'big.bin', data: new Uint8Array(64 * 1024 + 1) },
		]);
		expect(res.status).toBe(413);
		expect(res.body.code).toBe('FILE_SIZE_MORE_THAN_ALLOWED_SIZE');
		expect(await storage()).toEqual(before);
	});

	test('needs CRM.files.CREATE', async () => {
		const readOnly = (await grantToken(sb.url, { scope: 'CRM.files.READ' })).access_token;
		const res = await upload([{ name: 'a.txt', data: 'a' }], readOnly);
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});

describe('GetFile', () => {
	test('answers the bytes with the stored type and Content-Disposition', async () => {
		const bytes = new Uint8Array([1, 2, 3, 250, 251]);
		const up = await upload([{ name: 'data.bin', data: bytes, type: 'application/x-custom' }]);
		const id = up.body.data[0].details.id;
		const res = await fetch(`${sb.url}/crm/v2/files?id=${id}`, {
			headers: { Authorization: `Bearer ${sb.token}` },
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/x-custom');
		expect(res.headers.get('content-disposition')).toBe('attachment; filename="data.bin"');
		expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
	});

	test('non-ASCII names use the RFC 5987 form', async () => {
		const up = await upload([{ name: 'übersicht.txt', data: 'x' }]);
		const res = await fetch(`${sb.url}/crm/v2.1/files?id=${up.body.data[0].details.id}`, {
			headers: { Authorization: `Bearer ${sb.token}` },
		});
		expect(res.headers.get('content-disposition')).toBe(
			"attachment; filename*=UTF-8''%C3%BCbersicht.txt",
		);
		expect(res.headers.get('content-type')).toBe('text/plain');
	});

	test('missing id: 400 REQUIRED_PARAM_MISSING; unknown id: 400 INVALID_DATA', async () => {
		const missing = await api(`${sb.url}/crm/v2.1/files`, sb.token);
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'id' },
		});
		const unknown = await api(`${sb.url}/crm/v2.1/files`, sb.token, { query: { id: 'abc123' } });
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({ code: 'INVALID_DATA', details: { id: 'abc123' } });
	});

	test('needs CRM.files.READ', async () => {
		const other = (await grantToken(sb.url, { scope: 'CRM.modules.ALL' })).access_token;
		const res = await api(`${sb.url}/crm/v2.1/files`, other, { query: { id: 'abc' } });
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});
