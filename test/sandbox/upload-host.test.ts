// Contract tests of the bulk-write upload host (docs/protocol.md §1.1, §1.2, §5.11) over HTTP: the
// sandbox serves UploadFile on an origin of its own, as the service serves it on a content host,
// and refuses it on the API origin; one switch puts both on one origin.
import { writeZip } from '../../sandbox/zip.ts';
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken, startTestSandbox } from '../harness/sandbox.ts';

const XGID = '4876876000000000002';
const SCOPE = 'CRM.bulk.ALL,CRM.files.ALL,CRM.modules.ALL';
const zip = writeZip([{ name: 'Leads.csv', data: Buffer.from('Last_Name\nHosted\n', 'utf8') }]);

async function uploadTo(
	origin: string,
	token: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(zip)]), 'upload.zip');
	const res = await fetch(`${origin}/crm/v2.1/upload`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, feature: 'bulk-write', 'X-CRM-ORG': XGID },
		body: form,
	});
	return { status: res.status, body: JSON.parse(await res.text()) };
}

describe('upload host: its own origin by default', () => {
	const sb = useContractFixture({ scope: SCOPE });

	test('the upload origin takes the upload; the health hook names both origins', async () => {
		expect(sb.uploadUrl).not.toBe(sb.url);
		const res = await uploadTo(sb.uploadUrl, sb.token);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ code: 'FILE_UPLOAD_SUCCESS' });
		expect((await api(`${sb.url}/__sandbox/requests`)).body.requests.at(-1)).toMatchObject({
			method: 'POST',
			url: '/crm/v2.1/upload',
			status: 200,
			host: 'upload',
		});
		const health = await api(`${sb.url}/__sandbox/health`);
		expect(health.body).toEqual({ status: 'ok', origin: sb.url, upload_origin: sb.uploadUrl });
	});

	test('the API origin refuses the upload: 404 INVALID_URL_PATTERN naming the upload host, nothing stored', async () => {
		// the service has no list of uploads: the documented storage hook counts them (docs/protocol.md §14)
		const storage = async () => (await api(`${sb.url}/__sandbox/storage`)).body;
		const before = await storage();
		const res = await uploadTo(sb.url, sb.token);
		expect(res.status).toBe(404);
		expect(res.body).toMatchObject({ code: 'INVALID_URL_PATTERN', status: 'error' });
		expect(String(res.body.message)).toContain(sb.uploadUrl);
		expect(await storage()).toEqual(before);
	});

	test('the upload origin serves nothing else: API routes, bulk jobs, OAuth and hooks answer 404', async () => {
		for (const path of [
			'/crm/v2.1/Leads',
			'/crm/bulk/v2.1/write/1',
			'/oauth/v2/token',
			'/__sandbox/health',
		]) {
			const res = await api(`${sb.uploadUrl}${path}`, sb.token);
			expect({ path, status: res.status, code: res.body?.code }).toEqual({
				path,
				status: 404,
				code: 'INVALID_URL_PATTERN',
			});
		}
	});
});

describe('upload host: one origin when `separateUploadHost` is off', () => {
	test('the API origin takes the upload and no second origin listens', async () => {
		const running = await startTestSandbox({ separateUploadHost: false });
		try {
			expect(running.uploadUrl).toBe(running.url);
			expect(running.sandbox.config.uploadOrigin).toBe(running.url);
			const token = (await grantToken(running.url, { scope: SCOPE })).access_token;
			const res = await uploadTo(running.url, token);
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({ code: 'FILE_UPLOAD_SUCCESS' });
		} finally {
			await running.close();
		}
	});
});
