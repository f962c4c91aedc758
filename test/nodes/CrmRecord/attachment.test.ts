// Attachment resource (docs/protocol.md §5.4) through the engine against the sandbox: upload from an
// input binary, upload a link, list, download to a binary (bytes, name and MIME type), delete,
// field attachments (v2.1 only), cascade on record delete, size limit before sending.
import { randomBytes } from 'node:crypto';

import type { INodeExecutionData } from 'n8n-workflow';

import { crmFixture, useCrmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

function binaryItem(data: Buffer, fileName: string, mimeType: string): INodeExecutionData {
	return { json: {}, binary: { data: { data: data.toString('base64'), mimeType, fileName } } };
}

async function bytesOf(item: INodeExecutionData, property = 'data'): Promise<Buffer> {
	const binary = item.binary![property];
	return Buffer.from(binary.data, 'base64');
}

describe('CRM Record › Attachment', () => {
	let crm: CrmFixture;
	let leadId: string;

	beforeAll(async () => {
		crm = await crmFixture();
		const res = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [{ Last_Name: 'Attachment Holder', Company: 'Files Inc' }],
		});
		leadId = res.body.data[0].details.id;
	});
	afterAll(async () => await crm.close());

	const node = (operation: string, params: Record<string, unknown> = {}, extra = {}) =>
		crm.node(
			'crmRecord',
			{ resource: 'attachment', operation, module: 'Leads', recordId: leadId, ...params },
			extra,
		);

	test('upload a file, list it, download the same bytes with file name and MIME type, delete it', async () => {
		const content = Buffer.from('%PDF-1.4 sandbox attachment\n' + 'x'.repeat(1000));
		const upload = node('uploadFile', { binaryPropertyName: 'data' });
		const uploaded = outputOf(
			await crm.run(upload, [binaryItem(content, 'report.pdf', 'application/pdf')]),
			upload.name,
		);
		expect(uploaded).toHaveLength(1);
		expect(uploaded[0].json).toMatchObject({
			code: 'SUCCESS',
			status: 'success',
			message: 'attachment uploaded successfully',
		});
		const attachmentId = (uploaded[0].json.details as any).id as string;
		expect(attachmentId).toMatch(/^\d{19}$/);

		const list = node('getAll', { returnAll: true });
		const listed = outputOf(await crm.run(list), list.name);
		expect(listed.map((i) => i.json.id)).toContain(attachmentId);
		expect(listed.find((i) => i.json.id === attachmentId)!.json).toMatchObject({
			File_Name: 'report.pdf',
			Size: content.length,
			$se_module: 'Leads',
		});

		const download = node('download', { attachmentId, binaryPropertyName: 'file' });
		const downloaded = outputOf(await crm.run(download), download.name);
		expect(downloaded).toHaveLength(1);
		expect(downloaded[0].binary!.file).toMatchObject({
			fileName: 'report.pdf',
			mimeType: 'application/pdf',
		});
		expect(downloaded[0].json).toMatchObject({
			fileName: 'report.pdf',
			mimeType: 'application/pdf',
			fileSize: content.length,
		});
		expect((await bytesOf(downloaded[0], 'file')).equals(content)).toBe(true);

		const del = node('delete', { attachmentId });
		const deleted = outputOf(await crm.run(del), del.name);
		expect(deleted[0].json).toMatchObject({ id: attachmentId, status: 'success' });
		expect((await crm.api('GET', `/crm/v2.1/Leads/${leadId}/Attachments`)).status).toBe(204);
	});

	test('a 5 MB binary goes up and comes back byte-identical; non-ASCII names survive (RFC 5987)', async () => {
		const content = randomBytes(5 * 1024 * 1024);
		const upload = node('uploadFile', { binaryPropertyName: 'data' });
		const uploaded = outputOf(
			await crm.run(upload, [
				binaryItem(content, 'résumé données.bin', 'application/octet-stream'),
			]),
			upload.name,
		);
		const attachmentId = (uploaded[0].json.details as any).id as string;

		const download = node('download', { attachmentId, binaryPropertyName: 'data' });
		const [item] = outputOf(await crm.run(download), download.name);
		expect(item.binary!.data.fileName).toBe('résumé données.bin');
		expect(item.binary!.data.mimeType).toBe('application/octet-stream');
		const back = await bytesOf(item);
		expect(back.length).toBe(content.length);
		expect(back.equals(content)).toBe(true);
	});

	test('upload a link; downloading it is refused with INVALID_DATA', async () => {
		const upload = node('uploadLink', { attachmentUrl: 'https://example.com/docs/brochure.pdf' });
		const [result] = outputOf(await crm.run(upload), upload.name);
		const attachmentId = (result.json.details as any).id as string;
		const stored = (await crm.api('GET', `/crm/v2.1/Leads/${leadId}/Attachments`)).body.data.find(
			(a: any) => a.id === attachmentId,
		);
		expect(stored).toMatchObject({
			$link_url: 'https://example.com/docs/brochure.pdf',
			File_Name: 'brochure.pdf',
		});

		const download = node('download', { attachmentId });
		const error = errorOf(await crm.run(download), download.name);
		expect(error?.message).toContain('INVALID_DATA');
	});

	test('delete many: items of one record share one request; unknown IDs fail only their item', async () => {
		const ids: string[] = [];
		for (const name of ['a.txt', 'b.txt']) {
			const up = node('uploadFile');
			const [r] = outputOf(
				await crm.run(up, [binaryItem(Buffer.from(name), name, 'text/plain')]),
				up.name,
			);
			ids.push((r.json.details as any).id);
		}
		await crm.clearRequests();
		const del = node(
			'delete',
			{ attachmentId: '={{ $json.id }}' },
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(del, [
				{ json: { id: ids[0] } },
				{ json: { id: '4876876999999999999' } },
				{ json: { id: ids[1] } },
			]),
			del.name,
		);
		expect(out.map((i) => i.json.status ?? (i.json.details as any)?.status)).toEqual([
			'success',
			'error',
			'success',
		]);
		const deletes = (await crm.requests()).filter((r) => r.method === 'DELETE');
		expect(deletes).toHaveLength(1);
		const left = (await crm.api('GET', `/crm/v2.1/Leads/${leadId}/Attachments`)).body?.data ?? [];
		expect(left.map((a: any) => a.id)).not.toEqual(expect.arrayContaining([ids[0]]));
		expect(left.map((a: any) => a.id)).not.toEqual(expect.arrayContaining([ids[1]]));
	});

	test('a file over 20 MB is refused by the node before any request', async () => {
		await crm.clearRequests();
		const upload = node('uploadFile');
		const error = errorOf(
			await crm.run(upload, [
				binaryItem(Buffer.alloc(20 * 1024 * 1024 + 1), 'big.bin', 'application/octet-stream'),
			]),
			upload.name,
		);
		expect(error?.message).toContain('at most 20 MB');
		expect((await crm.requests()).filter((r) => r.url.includes('/Attachments'))).toHaveLength(0);
	});

	test('field attachments download on v2.1 (GetFieldAttachments)', async () => {
		const form = new FormData();
		form.append(
			'file',
			new Blob([Buffer.from('field file body')], { type: 'text/plain' }),
			'contract.txt',
		);
		const hook = await fetch(
			`${crm.url}/__sandbox/field_attachments?module=Leads&record_id=${leadId}&field=Contract`,
			{ method: 'POST', body: form },
		);
		const { id } = (await hook.json()) as { id: string };
		const download = node('downloadFieldAttachment', { fieldsAttachmentId: id });
		const [item] = outputOf(await crm.run(download), download.name);
		expect(item.binary!.data).toMatchObject({ fileName: 'contract.txt', mimeType: 'text/plain' });
		expect((await bytesOf(item)).toString()).toBe('field file body');
	});

	test('deleting the record deletes its attachments (cascade)', async () => {
		const res = await crm.api('POST', '/crm/v2.1/Accounts', {
			data: [{ Account_Name: 'Cascade Attachments Ltd' }],
		});
		const accountId = res.body.data[0].details.id;
		const up = crm.node('crmRecord', {
			resource: 'attachment',
			operation: 'uploadFile',
			module: 'Accounts',
			recordId: accountId,
		});
		const [r] = outputOf(
			await crm.run(up, [binaryItem(Buffer.from('bye'), 'bye.txt', 'text/plain')]),
			up.name,
		);
		const attachmentId = (r.json.details as any).id;
		const before = await crm.download(
			`/crm/v2.1/Accounts/${accountId}/Attachments/${attachmentId}`,
		);
		expect(before.status).toBe(200);
		expect(before.bytes.toString()).toBe('bye');
		await crm.api('DELETE', `/crm/v2.1/Accounts/${accountId}`);
		// the download names the attachment itself as unknown: it went with its record
		const after = await crm.download(`/crm/v2.1/Accounts/${accountId}/Attachments/${attachmentId}`);
		expect(after.status).toBe(400);
		expect(JSON.parse(after.bytes.toString())).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: attachmentId },
		});
	});
});

describe('CRM Record › Attachment on a v2 credential', () => {
	const crm = useCrmFixture({ variant: 'v2' });

	test('GetFieldAttachments (v2.1 only) is refused before sending', async () => {
		await crm.clearRequests();
		const download = crm.node('crmRecord', {
			resource: 'attachment',
			operation: 'downloadFieldAttachment',
			module: 'Leads',
			recordId: '4876876000000611001',
			fieldsAttachmentId: '4876876000000611002',
		});
		const error = errorOf(await crm.run(download), download.name);
		expect(error?.message).toContain('needs API variant v2.1');
		expect((await crm.requests()).filter((r) => r.url.startsWith('/crm/'))).toHaveLength(0);
	});
});
