// Contract tests of the sandbox organisation group (docs/protocol.md §5.6, §3.3, §13) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.org.ALL', sandbox: { maxFileBytes: 1024 } });

/** A multipart body with one part (name `file` unless told otherwise). */
function multipart(
	parts: Array<{ name: string; filename?: string; type?: string; data: string | Uint8Array }>,
) {
	const boundary = 'sandbox-test-boundary';
	const chunks: Buffer[] = [];
	for (const p of parts) {
		const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
			),
		);
		chunks.push(Buffer.from(p.data));
		chunks.push(Buffer.from('\r\n'));
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return {
		body: new Uint8Array(Buffer.concat(chunks)),
		headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
	};
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe('GetOrganization', () => {
	it('answers org as a list of one carrying xgid, time zone, currency and licence details', async () => {
		const res = await api(`${sb.url}/crm/v2.1/org`, sb.token);
		expect(res.status).toBe(200);
		expect(res.body.org).toHaveLength(1);
		const org = res.body.org[0];
		expect(org).toMatchObject({
			id: '4876876000000000001',
			company_name: 'Sandbox Industries',
			xgid: '4876876000000000002',
			time_zone: 'UTC',
			iso_code: 'USD',
			currency_symbol: '$',
			mc_status: false,
			photo_id: null,
			license_details: { paid: true, users_license_purchased: 10 },
		});
	});

	it('v2.1 adds hierarchy_preferences and hipaa_compliance_enabled; v2 does not', async () => {
		const v21 = (await api(`${sb.url}/crm/v2.1/org`, sb.token)).body.org[0];
		const v2 = (await api(`${sb.url}/crm/v2/org`, sb.token)).body.org[0];
		expect(v21.hierarchy_preferences).toEqual({ type: 'Role_Hierarchy' });
		expect(v21.hipaa_compliance_enabled).toBe(false);
		expect(v2).not.toHaveProperty('hierarchy_preferences');
		expect(v2).not.toHaveProperty('hipaa_compliance_enabled');
		expect(v2.xgid).toBe(v21.xgid);
	});

	it('needs an org scope', async () => {
		const other = (await grantToken(sb.url, { scope: 'CRM.users.ALL' })).access_token;
		const res = await api(`${sb.url}/crm/v2.1/org`, other);
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});

describe('UploadOrganizationPhoto', () => {
	it('stores an image: bare success item, org photo_id set', async () => {
		const res = await api(`${sb.url}/crm/v2.1/org/photo`, sb.token, {
			method: 'POST',
			...multipart([{ name: 'file', filename: 'logo.png', type: 'image/png', data: PNG }]),
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			code: 'SUCCESS',
			details: {},
			message: 'photo uploaded successfully',
			status: 'success',
		});
		const org = (await api(`${sb.url}/crm/v2.1/org`, sb.token)).body.org[0];
		expect(org.photo_id).toMatch(/^\d{19}$/);
		// read back through the test hook (the service has no call for it)
		const stored = await fetch(`${sb.url}/__sandbox/org/photo`);
		expect(stored.status).toBe(200);
		expect(stored.headers.get('content-type')).toBe('image/png');
		expect(stored.headers.get('content-disposition')).toBe('attachment; filename="logo.png"');
		expect(Buffer.from(await stored.arrayBuffer()).equals(Buffer.from(PNG))).toBe(true);
	});

	it('a part without a type is typed from the file name', async () => {
		const res = await api(`${sb.url}/crm/v2/org/photo`, sb.token, {
			method: 'POST',
			...multipart([{ name: 'file', filename: 'logo.jpg', data: PNG }]),
		});
		expect(res.status).toBe(200);
		expect((await fetch(`${sb.url}/__sandbox/org/photo`)).headers.get('content-type')).toBe(
			'image/jpeg',
		);
	});

	it.each([
		['no file part', [{ name: 'other', data: 'text' }], 'the request does not contain any file'],
		[
			'a non-image file',
			[{ name: 'file', filename: 'notes.txt', type: 'text/plain', data: 'hello' }],
			'invalid file type',
		],
	])('%s: 400 INVALID_DATA', async (_what, parts, message) => {
		const res = await api(`${sb.url}/crm/v2.1/org/photo`, sb.token, {
			method: 'POST',
			...multipart(parts),
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ code: 'INVALID_DATA', details: {}, message, status: 'error' });
	});

	it('a JSON body has no file; an oversized image is 413', async () => {
		const json = await api(`${sb.url}/crm/v2.1/org/photo`, sb.token, {
			method: 'POST',
			body: { file: 'x' },
		});
		expect(json.status).toBe(400);
		expect(json.body.message).toBe('the request does not contain any file');
		const big = await api(`${sb.url}/crm/v2.1/org/photo`, sb.token, {
			method: 'POST',
			...multipart([
				{ name: 'file', filename: 'big.png', type: 'image/png', data: new Uint8Array(2048) },
			]),
		});
		expect(big.status).toBe(413);
		expect(big.body.code).toBe('FILE_SIZE_MORE_THAN_ALLOWED_SIZE');
	});
});
