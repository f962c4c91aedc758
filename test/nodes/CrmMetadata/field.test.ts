import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Field (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const node = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmMetadata', { resource: 'field', ...params } as any, extra);

	test('Get Many lists the fields of a module (GetFields)', async () => {
		const getAll = node({ operation: 'getAll', module: 'Leads' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		const expected = (await crm.api('GET', '/crm/v2.1/settings/fields?module=Leads')).body.fields;
		expect(out.map((i) => i.json)).toEqual(expected);
		expect(out.find((i) => i.json.api_name === 'Last_Name')!.json).toMatchObject({
			mandatory: true,
			data_type: 'text',
		});
	});

	test('Get Many with type Unused sends type=unused (the sandbox has none: no items)', async () => {
		const unused = node({ operation: 'getAll', module: 'Leads', type: 'unused' });
		expect(outputOf(await crm.run(unused), unused.name)).toEqual([]);
		expect(
			(await crm.requests()).some(
				(r) => r.url.includes('/settings/fields?') && r.url.includes('type=unused'),
			),
		).toBe(true);
	});

	test('Get answers one field by ID (GetField)', async () => {
		const fields = (await crm.api('GET', '/crm/v2.1/settings/fields?module=Projects')).body.fields;
		const file = fields.find((f: any) => f.api_name === 'Contract_File');
		const get = node({ operation: 'get', module: 'Projects', fieldId: file.id });
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toEqual(file);
		expect(out[0].json.data_type).toBe('fileupload');
	});

	test('an unknown module fails with INVALID_MODULE', async () => {
		const getAll = node({ operation: 'getAll', module: 'Starships' });
		expect(errorOf(await crm.run(getAll), getAll.name)?.message).toContain('INVALID_MODULE');
	});
});
