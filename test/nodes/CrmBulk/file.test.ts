// CRM Bulk › File (shared file store) through the n8n engine against the sandbox: Upload (1..10
// binaries of an item, one output item per file), Get (binary with name and type), limits.
import type { INodeExecutionData } from 'n8n-workflow';

import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

function item(
	files: Record<string, { data: Buffer | string; fileName: string; mimeType: string }>,
): INodeExecutionData {
	return {
		json: {},
		binary: Object.fromEntries(
			Object.entries(files).map(([key, f]) => [
				key,
				{
					data: Buffer.from(f.data).toString('base64'),
					fileName: f.fileName,
					mimeType: f.mimeType,
				},
			]),
		),
	};
}

describe('CRM Bulk › File (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	beforeAll(async () => (crm = await crmFixture()));
	afterAll(async () => await crm.close());

	test('Upload two binaries of one item → two file IDs; Get returns the same bytes, name and type', async () => {
		const pdf = Buffer.from([37, 80, 68, 70, 45, 49, 46, 55, 0, 255, 10]);
		const upload = crm.node('crmBulk', {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: 'data, attachment',
		});
		const out = outputOf(
			await crm.run(upload, [
				item({
					data: { data: 'hello file store', fileName: 'hello.txt', mimeType: 'text/plain' },
					attachment: { data: pdf, fileName: 'résumé.pdf', mimeType: 'application/pdf' },
				}),
			]),
			upload.name,
		);
		expect(out).toHaveLength(2);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		expect(out[0].json).toMatchObject({
			name: 'hello.txt',
			status: 'success',
			code: 'SUCCESS',
			message: 'uploaded successfully',
		});
		expect(out[1].json.name).toBe('résumé.pdf');
		const id = out[1].json.id as string;
		expect(id).toMatch(/^[0-9a-f]{64}$/);
		// the file store serves it back as uploaded
		const stored = await crm.download(`/crm/v2.1/files?id=${id}`);
		expect(stored.status).toBe(200);
		expect(stored.headers.get('content-type')).toBe('application/pdf');
		expect(stored.headers.get('content-disposition')).toContain(
			"filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
		);
		expect(stored.bytes.equals(pdf)).toBe(true);

		const get = crm.node('crmBulk', {
			resource: 'file',
			operation: 'get',
			fileId: id,
			binaryPropertyName: 'file',
		});
		const got = outputOf(await crm.run(get), get.name);
		expect(got).toHaveLength(1);
		expect(got[0].json).toEqual({
			id,
			fileName: 'résumé.pdf',
			mimeType: 'application/pdf',
			fileSize: pdf.length,
		});
		expect(got[0].binary!.file).toMatchObject({
			fileName: 'résumé.pdf',
			mimeType: 'application/pdf',
		});
		expect(Buffer.from(got[0].binary!.file.data, 'base64').equals(pdf)).toBe(true);
	});

	test('several input items: one request per item, outputs paired', async () => {
		const upload = crm.node('crmBulk', {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: 'data',
		});
		await crm.clearRequests();
		const out = outputOf(
			await crm.run(upload, [
				item({ data: { data: 'a', fileName: 'a.txt', mimeType: 'text/plain' } }),
				item({ data: { data: 'b', fileName: 'b.txt', mimeType: 'text/plain' } }),
			]),
			upload.name,
		);
		expect(out.map((i) => [i.json.name, (i.pairedItem as any).item])).toEqual([
			['a.txt', 0],
			['b.txt', 1],
		]);
		expect(
			(await crm.requests()).filter((r) => r.url === '/crm/v2.1/files?type=inline'),
		).toHaveLength(2);
	});

	test('limits before sending: more than 10 binaries, a file over 20 MB, a missing binary', async () => {
		await crm.clearRequests();
		const eleven = Object.fromEntries(
			Array.from({ length: 11 }, (_, i) => [
				`f${i}`,
				{ data: `${i}`, fileName: `${i}.txt`, mimeType: 'text/plain' },
			]),
		);
		const many = crm.node('crmBulk', {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: Object.keys(eleven).join(','),
		});
		expect(errorOf(await crm.run(many, [item(eleven)]), many.name)?.message).toMatch(
			/names 11 fields; the file store takes 1 to 10 files/,
		);

		const big = crm.node('crmBulk', {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: 'data',
		});
		const bigItem = item({
			data: {
				data: Buffer.alloc(20 * 1024 * 1024 + 1),
				fileName: 'big.bin',
				mimeType: 'application/octet-stream',
			},
		});
		expect(errorOf(await crm.run(big, [bigItem]), big.name)?.message).toMatch(
			/"big.bin" is 20.0 MB; the file store takes at most 20 MB/,
		);

		const missing = crm.node('crmBulk', {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: 'nope',
		});
		expect(
			errorOf(
				await crm.run(missing, [
					item({ data: { data: 'x', fileName: 'x.txt', mimeType: 'text/plain' } }),
				]),
				missing.name,
			)?.message,
		).toMatch(/nope/);
		expect((await crm.requests()).filter((r) => r.url.startsWith('/crm/v2.1/files'))).toEqual([]);
	});

	test('Get of an unknown id (400 INVALID_DATA) fails with "No file with ID …"; Continue On Fail gives an error item', async () => {
		const get = crm.node('crmBulk', {
			resource: 'file',
			operation: 'get',
			fileId: 'abc',
			binaryPropertyName: 'data',
		});
		const error = errorOf(await crm.run(get), get.name);
		expect((await crm.requests()).at(-1)?.status).toBe(400);
		expect(error?.message).toBe('No file with ID abc');
		expect(error?.httpCode).toBe('404');
		const lenient = crm.node(
			'crmBulk',
			{ resource: 'file', operation: 'get', fileId: 'abc', binaryPropertyName: 'data' },
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(await crm.run(lenient), lenient.name);
		expect(out[0].json.error).toBeDefined();
	});
});
