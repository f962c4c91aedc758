// GetFieldAttachments (docs/protocol.md §5.4) on the seeded file-upload field of Projects
// (`Contract_File`, see sandbox/groups/modules.ts). The operation itself is CRM Record →
// Attachment → Download Field Attachment; this checks the metadata-seeded field end to end.
import { useCrmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('Projects.Contract_File through GetFieldAttachments (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();
	const v2 = useCrmFixture({ variant: 'v2' });

	async function projectWithContract(f: CrmFixture): Promise<{ id: string; file: any }> {
		const projects = (await f.api('GET', '/crm/v2.1/Projects?per_page=200')).body.data as any[];
		const project = projects.find(
			(p) => Array.isArray(p.Contract_File) && p.Contract_File.length > 0,
		);
		return { id: project.id, file: project.Contract_File[0] };
	}

	test('downloads the contract as binary data with its file name and type', async () => {
		const { id, file } = await projectWithContract(crm);
		const download = crm.node('crmRecord', {
			resource: 'attachment',
			operation: 'downloadFieldAttachment',
			module: 'Projects',
			recordId: id,
			fieldsAttachmentId: file.attachment_Id,
			binaryPropertyName: 'contract',
		} as any);
		const out = outputOf(await crm.run(download), download.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			fileName: file.file_Name,
			mimeType: 'application/pdf',
			fileSize: Number(file.file_Size),
		});
		const binary = out[0].binary!.contract;
		expect(binary).toMatchObject({ fileName: file.file_Name, mimeType: 'application/pdf' });
		expect(Buffer.from(binary.data, 'base64').subarray(0, 8).toString()).toBe('%PDF-1.4');
	});

	test('is refused under a v2 credential', async () => {
		const { id, file } = await projectWithContract(v2);
		const download = v2.node('crmRecord', {
			resource: 'attachment',
			operation: 'downloadFieldAttachment',
			module: 'Projects',
			recordId: id,
			fieldsAttachmentId: file.attachment_Id,
		} as any);
		expect(errorOf(await v2.run(download), download.name)?.message).toContain('v2.1');
	});
});
