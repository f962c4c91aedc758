import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Layout (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const node = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmMetadata', { resource: 'layout', ...params } as any, extra);

	test('Get Many lists the layouts of a module with sections and fields (GetLayouts)', async () => {
		const getAll = node({ operation: 'getAll', module: 'Deals' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.name)).toEqual(['Standard', 'Partner Deals']);
		const sections = out[0].json.sections as any[];
		expect(sections[0].display_label).toBe('Deal Information');
		expect(sections.flatMap((s) => s.fields.map((f: any) => f.api_name))).toEqual(
			expect.arrayContaining(['Deal_Name', 'Stage', 'Pipeline']),
		);
	});

	test('Get answers one layout by ID (GetLayout)', async () => {
		const layouts = (await crm.api('GET', '/crm/v2.1/settings/layouts?module=Deals')).body.layouts;
		const get = node({ operation: 'get', module: 'Deals', layoutId: layouts[1].id });
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toEqual(layouts[1]);
	});

	test('an unknown layout (400 INVALID_DATA) fails with "No layout with ID …"', async () => {
		const get = node({ operation: 'get', module: 'Deals', layoutId: '4876876000000000042' });
		const error = errorOf(await crm.run(get), get.name);
		expect(error?.message).toBe('No layout with ID 4876876000000000042');
	});
});
