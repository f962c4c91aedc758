import { useCrmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Inventory Template (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();
	const v2 = useCrmFixture({ variant: 'v2' });

	const node = (f: CrmFixture, params: Record<string, unknown>) =>
		f.node('crmMetadata', { resource: 'inventoryTemplate', ...params } as any);

	test("Get Many lists a module's templates, sorted and filtered (GetInventoryTemplates)", async () => {
		const sorted = node(crm, {
			operation: 'getAll',
			module: 'Quotes',
			options: { sort_by: 'name', sort_order: 'asc' },
		});
		expect(outputOf(await crm.run(sorted), sorted.name).map((i) => i.json.name)).toEqual([
			'Quote - Compact',
			'Quote - Draft Redesign',
			'Standard Quote',
		]);
		const favorite = node(crm, {
			operation: 'getAll',
			module: 'Invoices',
			options: { category: 'favorite' },
		});
		expect(outputOf(await crm.run(favorite), favorite.name).map((i) => i.json.name)).toEqual([
			'Standard Invoice',
		]);
	});

	test('Get answers one template with its content (GetInventoryTemplatebyID)', async () => {
		const [first] = (
			await crm.api('GET', '/crm/v2.1/settings/inventory_templates?module=Sales_Orders')
		).body.inventory_templates;
		const get = node(crm, { operation: 'get', templateId: first.id, options: { sort_by: 'name' } });
		const out = outputOf(await crm.run(get), get.name);
		expect(out.map((i) => i.json.name)).toEqual(['Standard Sales Order']);
		expect(out[0].json.content).toContain('${LineItems}');
	});

	test('under a v2 credential the operations are refused before sending', async () => {
		const getAll = node(v2, { operation: 'getAll', module: 'Quotes' });
		expect(errorOf(await v2.run(getAll), getAll.name)?.message).toContain('needs API variant v2.1');
	});
});
