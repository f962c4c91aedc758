// Contract tests of the attachment routes (docs/protocol.md §3.3, §3.4, §5.4, §6) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL', sandbox: { maxFileBytes: 1024 * 1024 } });
let lead: string;

beforeAll(async () => {
	lead = (
		await api(`${sb.url}/crm/v2.1/Leads`, sb.token, {
			method: 'POST',
			body: { data: [{ Last_Name: 'Files' }] },
		})
	).body.data[0].details.id;
});

async function upload(
	parts: Array<{ field?: string; name: string; type?: string; data: Buffer | string }>,
	path = `/crm/v2.1/Leads/${lead}/Attachments`,
) {
	const form = new FormData();
	for (const p of parts)
		form.append(
			p.field ?? 'file',
			new Blob(
				[typeof p.data === 'string' ? Buffer.from(p.data) : p.data],
				p.type ? { type: p.type } : {},
			),
			p.name,
		);
	const res = await fetch(`${sb.url}${path}`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${sb.token}` },
		body: form,
	});
	return { status: res.status, body: (await res.json()) as any };
}

async function raw(path: string) {
	const res = await fetch(`${sb.url}${path}`, { headers: { Authorization: `Bearer ${sb.token}` } });
	return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('UploadAttachment / DownloadAttachment', () => {
	it('201 with the success item; download answers the bytes, stored type and Content-Disposition', async () => {
		const up = await upload([{ name: 'notes.txt', type: 'text/plain', data: 'hello attachments' }]);
		expect(up.status).toBe(201);
		expect(up.body.data[0]).toMatchObject({
			code: 'SUCCESS',
			message: 'attachment uploaded successfully',
			status: 'success',
		});
		expect(Object.keys(up.body.data[0].details).sort()).toEqual([
			'Created_By',
			'Created_Time',
			'Modified_By',
			'Modified_Time',
			'id',
		]);
		const down = await raw(`/crm/v2.1/Leads/${lead}/Attachments/${up.body.data[0].details.id}`);
		expect(down.status).toBe(200);
		expect(down.headers.get('content-type')).toBe('text/plain');
		expect(down.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"');
		expect(down.bytes.toString()).toBe('hello attachments');
	});

	it('infers the type from the name when the part has none; non-ASCII names use RFC 5987', async () => {
		const up = await upload([{ name: 'Übersicht.pdf', data: '%PDF' }]);
		const down = await raw(`/crm/v2.1/Leads/${lead}/Attachments/${up.body.data[0].details.id}`);
		expect(down.headers.get('content-type')).toBe('application/pdf');
		expect(down.headers.get('content-disposition')).toBe(
			`attachment; filename*=UTF-8''${encodeURIComponent('Übersicht.pdf')}`,
		);
	});

	it('errors: no file part, over the size limit (413), unknown parent, unknown attachment (JSON envelope)', async () => {
		const none = await upload([{ field: 'other', name: 'x.txt', data: 'x' }]);
		expect(none.status).toBe(400);
		expect(none.body).toMatchObject({
			code: 'INVALID_DATA',
			message: 'the request does not contain any file',
		});
		const big = await upload([{ name: 'big.bin', data: Buffer.alloc(1024 * 1024 + 1) }]);
		expect(big.status).toBe(413);
		expect(big.body.code).toBe('FILE_SIZE_MORE_THAN_ALLOWED_SIZE');
		const orphan = await upload(
			[{ name: 'x.txt', data: 'x' }],
			'/crm/v2.1/Leads/4876876999999999999/Attachments',
		);
		expect(orphan.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876999999999999' },
		});
		const res = await api(
			`${sb.url}/crm/v2.1/Leads/${lead}/Attachments/4876876999999999999`,
			sb.token,
		);
		expect(res.status).toBe(400);
		expect(res.headers.get('content-type')).toContain('application/json');
		expect(res.body.code).toBe('INVALID_DATA');
	});
});

describe('UploadLinkAttachment / GetAttachments / DeleteAttachments / DeleteAttachment', () => {
	it('stores links with $link_url; lists with paging and fields; link download is INVALID_DATA', async () => {
		const link = await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments`, sb.token, {
			method: 'POST',
			query: { attachmentUrl: 'https://example.com/a/b.html?x=1' },
		});
		expect(link.status).toBe(201);
		const id = link.body.data[0].details.id;
		const list = await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments`, sb.token);
		const item = list.body.data.find((a: any) => a.id === id);
		expect(item).toMatchObject({
			$link_url: 'https://example.com/a/b.html?x=1',
			File_Name: 'b.html',
			$se_module: 'Leads',
			Parent_Id: { id: lead, name: 'Files' },
		});
		const fields = await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments`, sb.token, {
			query: { fields: 'File_Name', per_page: 1 },
		});
		expect(Object.keys(fields.body.data[0]).sort()).toEqual(['File_Name', 'id']);
		expect(fields.body.info).toMatchObject({ per_page: 1, count: 1, more_records: true });
		expect(
			(await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments/${id}`, sb.token)).body.code,
		).toBe('INVALID_DATA');
		const badUrl = await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments`, sb.token, {
			method: 'POST',
			query: { attachmentUrl: 'not a url' },
		});
		expect(badUrl.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { param_name: 'attachmentUrl' },
		});
		// the link may also come as a multipart text field (§3.3)
		const form = new FormData();
		form.append('attachmentUrl', 'https://example.com/c.pdf');
		const viaForm = await fetch(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${sb.token}` },
			body: form,
		});
		expect(viaForm.status).toBe(201);
	});

	it('deletes many (per-item results) and one; ids required', async () => {
		const a = (await upload([{ name: 'a.txt', data: 'a' }])).body.data[0].details.id;
		const b = (await upload([{ name: 'b.txt', data: 'b' }])).body.data[0].details.id;
		const many = await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments`, sb.token, {
			method: 'DELETE',
			query: { ids: `${a},4876876999999999999` },
		});
		expect(many.body.data.map((r: any) => r.status)).toEqual(['success', 'error']);
		const one = await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments/${b}`, sb.token, {
			method: 'DELETE',
		});
		expect(one.body.data[0]).toMatchObject({ status: 'success', details: { id: b } });
		// neither is listed any more
		const listed = await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments`, sb.token, {
			query: { per_page: 200 },
		});
		const ids = listed.status === 204 ? [] : listed.body.data.map((r: any) => r.id);
		expect(ids).not.toContain(a);
		expect(ids).not.toContain(b);
		expect(
			(await api(`${sb.url}/crm/v2.1/Leads/${lead}/Attachments`, sb.token, { method: 'DELETE' }))
				.body.code,
		).toBe('REQUIRED_PARAM_MISSING');
	});

	it('an empty list answers 204; a module without attachments is INVALID_DATA', async () => {
		const other = (
			await api(`${sb.url}/crm/v2.1/Leads`, sb.token, {
				method: 'POST',
				body: { data: [{ Last_Name: 'No files' }] },
			})
		).body.data[0].details.id;
		expect((await api(`${sb.url}/crm/v2.1/Leads/${other}/Attachments`, sb.token)).status).toBe(204);
		const note = (
			await api(`${sb.url}/crm/v2.1/Leads/${other}/Notes`, sb.token, {
				method: 'POST',
				body: { data: [{ Note_Content: 'n' }] },
			})
		).body.data[0].details.id;
		expect((await api(`${sb.url}/crm/v2.1/Notes/${note}/Attachments`, sb.token)).body.code).toBe(
			'INVALID_DATA',
		);
	});
});

describe('GetFieldAttachments (v2.1 only)', () => {
	it('downloads a field file; 404 INVALID_URL_PATTERN under v2; fields_attachment_id required', async () => {
		const form = new FormData();
		form.append('file', new Blob([Buffer.from('field')], { type: 'text/plain' }), 'f.txt');
		const hook = await fetch(
			`${sb.url}/__sandbox/field_attachments?module=Leads&record_id=${lead}`,
			{ method: 'POST', body: form },
		);
		const { id } = (await hook.json()) as any;
		const down = await raw(
			`/crm/v2.1/Leads/${lead}/actions/download_fields_attachment?fields_attachment_id=${id}`,
		);
		expect(down.status).toBe(200);
		expect(down.bytes.toString()).toBe('field');
		const v2 = await api(
			`${sb.url}/crm/v2/Leads/${lead}/actions/download_fields_attachment`,
			sb.token,
			{ query: { fields_attachment_id: id } },
		);
		expect(v2.status).toBe(404);
		expect(v2.body.code).toBe('INVALID_URL_PATTERN');
		expect(
			(await api(`${sb.url}/crm/v2.1/Leads/${lead}/actions/download_fields_attachment`, sb.token))
				.body.code,
		).toBe('REQUIRED_PARAM_MISSING');
	});
});

describe('cascade', () => {
	it('deleting the record removes its attachments and their bytes', async () => {
		const parent = (
			await api(`${sb.url}/crm/v2.1/Leads`, sb.token, {
				method: 'POST',
				body: { data: [{ Last_Name: 'Doomed' }] },
			})
		).body.data[0].details.id;
		const up = await upload(
			[{ name: 'x.txt', data: 'x' }],
			`/crm/v2.1/Leads/${parent}/Attachments`,
		);
		const id = up.body.data[0].details.id;
		// the service has no read of stored bytes: the documented storage hook counts them (docs/protocol.md §14)
		const blobs = async () => (await api(`${sb.url}/__sandbox/storage`)).body.blobs;
		const before = await blobs();
		expect((await raw(`/crm/v2.1/Leads/${parent}/Attachments/${id}`)).status).toBe(200);
		await api(`${sb.url}/crm/v2.1/Leads/${parent}`, sb.token, { method: 'DELETE' });
		// the attachment went with its parent: the unknown-attachment answer
		expect(
			(await api(`${sb.url}/crm/v2.1/Leads/${parent}/Attachments/${id}`, sb.token)).body,
		).toMatchObject({ code: 'INVALID_DATA', details: { id } });
		expect(await blobs()).toBe(before - 1);
	});
});
