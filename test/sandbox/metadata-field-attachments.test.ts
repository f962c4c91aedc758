// The seeded file-upload field of Projects (`Contract_File`) and its files, downloaded through
// GetFieldAttachments (docs/protocol.md §5.4, §3.4, v2.1 only) over HTTP.
import { useContractFixture } from '../harness/contract.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL,CRM.settings.ALL' });
const { call } = sb;

describe('Projects.Contract_File', () => {
	it('is a custom file-upload field appended to the module (other field ids unchanged)', async () => {
		const fields = (
			await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Projects' } })
		).body.fields;
		const last = fields[fields.length - 1];
		expect(last).toMatchObject({
			api_name: 'Contract_File',
			data_type: 'fileupload',
			json_type: 'jsonarray',
			custom_field: true,
		});
		expect(fields.filter((f: any) => f.data_type === 'fileupload')).toHaveLength(1);
	});

	it('three demo projects carry a contract; the file downloads with its name and type', async () => {
		const projects = (await call('GET', '/crm/v2.1/Projects', { query: { per_page: 200 } })).body
			.data;
		const withFile = projects.filter(
			(p: any) => Array.isArray(p.Contract_File) && p.Contract_File.length > 0,
		);
		expect(withFile).toHaveLength(3);
		const [file] = withFile[0].Contract_File;
		expect(file).toMatchObject({
			attachment_Id: expect.stringMatching(/^\d{19}$/),
			file_Name: expect.stringMatching(/^contract-.*\.pdf$/),
			extn: 'pdf',
		});
		const res = await fetch(
			`${sb.url}/crm/v2.1/Projects/${withFile[0].id}/actions/download_fields_attachment?fields_attachment_id=${file.attachment_Id}`,
			{
				headers: { Authorization: `Bearer ${sb.token}` },
			},
		);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/pdf');
		expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${file.file_Name}"`);
		const bytes = Buffer.from(await res.arrayBuffer());
		expect(bytes.length).toBe(Number(file.file_Size));
		expect(bytes.subarray(0, 8).toString()).toBe('%PDF-1.4');
	});

	it('the attachment belongs to its record; v2 has no such route', async () => {
		const projects = (await call('GET', '/crm/v2.1/Projects', { query: { per_page: 200 } })).body
			.data;
		const withFile = projects.filter((p: any) => Array.isArray(p.Contract_File));
		const other = projects.find((p: any) => !Array.isArray(p.Contract_File));
		const id = withFile[0].Contract_File[0].attachment_Id;
		const wrong = await call(
			'GET',
			`/crm/v2.1/Projects/${other.id}/actions/download_fields_attachment`,
			{ query: { fields_attachment_id: id } },
		);
		expect(wrong.status).toBe(400);
		expect(wrong.body.code).toBe('INVALID_DATA');
		expect(
			(
				await call('GET', `/crm/v2/Projects/${withFile[0].id}/actions/download_fields_attachment`, {
					query: { fields_attachment_id: id },
				})
			).status,
		).toBe(404);
	});
});
