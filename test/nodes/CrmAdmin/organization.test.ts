// CRM Admin › Organization through n8n's engine against the sandbox: GetOrganization,
// UploadOrganizationPhoto from an input binary (multipart part `file`).
import type { INodeExecutionData } from 'n8n-workflow';

import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

const PNG = Buffer.from([
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

const binaryItem = (data: Buffer, fileName: string, mimeType: string): INodeExecutionData => ({
	json: {},
	binary: { logo: { data: data.toString('base64'), mimeType, fileName } },
});

describe('CRM Admin › Organization (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	test('Get returns the organization with its xgid', async () => {
		const get = crm.node('crmAdmin', { resource: 'organization', operation: 'get' });
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			id: '4876876000000000001',
			company_name: 'Sandbox Industries',
			xgid: '4876876000000000002',
			license_details: { users_license_purchased: 10 },
			hierarchy_preferences: { type: 'Role_Hierarchy' },
		});
	});

	test('Upload Photo sends the input binary as the file part; the org gets a photo id', async () => {
		const upload = crm.node('crmAdmin', {
			resource: 'organization',
			operation: 'uploadPhoto',
			binaryPropertyName: 'logo',
		});
		const out = outputOf(
			await crm.run(upload, [binaryItem(PNG, 'logo.png', 'image/png')]),
			upload.name,
		);
		expect(out[0].json).toMatchObject({
			code: 'SUCCESS',
			message: 'photo uploaded successfully',
			status: 'success',
		});
		const stored = await crm.download('/__sandbox/org/photo');
		expect(stored.status).toBe(200);
		expect(stored.headers.get('content-type')).toBe('image/png');
		expect(stored.headers.get('content-disposition')).toContain('filename="logo.png"');
		expect(stored.bytes.equals(PNG)).toBe(true);
		const org = await crm.api('GET', '/crm/v2.1/org');
		expect(org.body.org[0].photo_id).toMatch(/^\d{19}$/);
	});

	test('a non-image binary surfaces INVALID_DATA; a missing binary field fails before sending', async () => {
		const upload = crm.node('crmAdmin', {
			resource: 'organization',
			operation: 'uploadPhoto',
			binaryPropertyName: 'logo',
		});
		const error = errorOf(
			await crm.run(upload, [binaryItem(Buffer.from('plain text'), 'notes.txt', 'text/plain')]),
			upload.name,
		);
		expect(error?.message).toContain('INVALID_DATA');
		expect(error?.message).toContain('invalid file type');

		await crm.clearRequests();
		const missing = crm.node('crmAdmin', {
			resource: 'organization',
			operation: 'uploadPhoto',
			binaryPropertyName: 'nothing',
		});
		expect(
			errorOf(await crm.run(missing, [binaryItem(PNG, 'logo.png', 'image/png')]), missing.name),
		).toBeDefined();
		expect((await crm.requests()).some((r) => r.url.includes('/org/photo'))).toBe(false);
	});
});
