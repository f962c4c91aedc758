import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Module (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const node = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmMetadata', { resource: 'module', ...params } as any, extra);

	test('Get Many lists every module (GetModules)', async () => {
		const getAll = node({ operation: 'getAll' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		const names = out.map((i) => i.json.api_name);
		expect(names).toEqual(expect.arrayContaining(['Leads', 'Deals', 'Projects']));
		expect(out).toHaveLength(
			(await crm.api('GET', '/crm/v2.1/settings/modules')).body.modules.length,
		);
		expect(out.find((i) => i.json.api_name === 'Projects')!.json.generated_type).toBe('custom');
	});

	test('Get Many with Modified Since outputs nothing when no module changed (If-Modified-Since → 304)', async () => {
		const later = new Date(Date.now() + 3600_000).toISOString();
		const getAll = node({ operation: 'getAll', options: { modifiedSince: later } });
		expect(outputOf(await crm.run(getAll), getAll.name)).toEqual([]);
		const earlier = node({
			operation: 'getAll',
			options: { modifiedSince: '2000-01-01T00:00:00' },
		});
		expect(outputOf(await crm.run(earlier), earlier.name).length).toBeGreaterThan(10);
	});

	test('Get answers one module with its fields (GetModule)', async () => {
		const get = node({ operation: 'get', module: 'Deals' });
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({ api_name: 'Deals', singular_label: 'Deal' });
		expect((out[0].json.fields as any[]).map((f) => f.api_name)).toEqual(
			expect.arrayContaining(['Stage', 'Pipeline']),
		);
	});

	test('Update by API name and by ID changes the module (UpdateModuleByAPIName, UpdateModuleById)', async () => {
		const byName = node({
			operation: 'update',
			identifyBy: 'apiName',
			module: 'Vendors',
			updateFields: { singular_label: 'Supplier', plural_label: 'Suppliers' },
		});
		const out = outputOf(await crm.run(byName), byName.name);
		expect(out[0].json).toMatchObject({
			code: 'SUCCESS',
			message: 'module updated successfully',
			details: { api_name: 'Vendors' },
		});
		const vendors = (await crm.api('GET', '/crm/v2.1/settings/modules/Vendors')).body.modules[0];
		expect([vendors.singular_label, vendors.plural_label]).toEqual(['Supplier', 'Suppliers']);

		const byId = node({
			operation: 'update',
			identifyBy: 'id',
			moduleId: vendors.id,
			updateFields: { sequence_number: 12, visibility: 0 },
		});
		const outById = outputOf(await crm.run(byId), byId.name);
		expect(outById[0].json).toMatchObject({
			code: 'SUCCESS',
			details: { id: vendors.id, api_name: 'Vendors' },
		});
		const after = (await crm.api('GET', `/crm/v2.1/settings/modules/${vendors.id}`)).body
			.modules[0];
		expect([after.sequence_number, after.visibility, after.singular_label]).toEqual([
			12,
			0,
			'Supplier',
		]);
	});

	test('Update validates before sending: nothing to update, labels over 25 characters', async () => {
		const before = (await crm.api('GET', '/crm/v2.1/settings/modules/Campaigns')).body.modules[0];
		const empty = node({
			operation: 'update',
			identifyBy: 'apiName',
			module: 'Campaigns',
			updateFields: {},
		});
		expect(errorOf(await crm.run(empty), empty.name)?.message).toContain('Nothing to update');
		const long = node({
			operation: 'update',
			identifyBy: 'apiName',
			module: 'Campaigns',
			updateFields: { plural_label: 'x'.repeat(26) },
		});
		expect(errorOf(await crm.run(long), long.name)?.message).toContain('at most 25 characters');
		expect((await crm.api('GET', '/crm/v2.1/settings/modules/Campaigns')).body.modules[0]).toEqual(
			before,
		);
	});

	test('an unknown module fails with the service error', async () => {
		const get = node({ operation: 'get', module: 'Starships' });
		const error = errorOf(await crm.run(get), get.name);
		expect(error?.message).toContain('INVALID_MODULE');
	});
});
