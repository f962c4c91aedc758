import { useCrmFixture } from '../../harness/crm';
import { outputOf } from '../../harness/n8n';

describe('CRM Metadata › Custom View (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const node = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmMetadata', { resource: 'customView', ...params } as any, extra);

	test('Get Many with Return All pages through every view (GetCustomViews)', async () => {
		const getAll = node({ operation: 'getAll', module: 'Deals', returnAll: true });
		const out = outputOf(await crm.run(getAll), getAll.name);
		const expected = (await crm.api('GET', '/crm/v2.1/settings/custom_views?module=Deals')).body
			.custom_views;
		expect(out.map((i) => i.json.id)).toEqual(expected.map((v: any) => v.id));
		expect(out[0].json).toMatchObject({ name: 'All Deals', default: true });
	});

	test('Get Many with a limit asks for small pages and stops at the limit', async () => {
		await crm.clearRequests();
		const limited = node({ operation: 'getAll', module: 'Leads', returnAll: false, limit: 2 });
		const out = outputOf(await crm.run(limited), limited.name);
		expect(out.map((i) => i.json.name)).toEqual(['All Leads', 'My Leads']);
		const calls = (await crm.requests()).filter((r) =>
			r.url.startsWith('/crm/v2.1/settings/custom_views'),
		);
		expect(calls).toHaveLength(1);
		expect(calls[0].url).toContain('per_page=2');
	});

	test('Get answers the view with its criteria (GetCustomView)', async () => {
		const views = (await crm.api('GET', '/crm/v2.1/settings/custom_views?module=Deals')).body
			.custom_views;
		const open = views.find((v: any) => v.name === 'Open Deals');
		const get = node({ operation: 'get', module: 'Deals', customViewId: open.id });
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({ id: open.id, name: 'Open Deals' });
		expect(out[0].json.criteria).toMatchObject({
			comparator: 'not_in',
			field: { api_name: 'Stage' },
		});
	});
});
