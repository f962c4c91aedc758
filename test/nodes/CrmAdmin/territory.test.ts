// CRM Admin › Territory through n8n's engine against the sandbox: GetTerritories, GetTerritory.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Admin › Territory (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	test('Get Many lists the territories, one item each', async () => {
		const getAll = crm.node('crmAdmin', { resource: 'territory', operation: 'getAll' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.name)).toEqual([
			'Global',
			'North America',
			'Europe',
			'Texas',
			'California',
			'DACH',
		]);
		expect(out.every((i) => /^\d{19}$/.test(String(i.json.id)))).toBe(true);
	});

	test('Get returns one territory by ID', async () => {
		const get = crm.node('crmAdmin', {
			resource: 'territory',
			operation: 'get',
			territoryId: '4876876000000361007',
		});
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			id: '4876876000000361007',
			name: 'Texas',
			reporting_to: { id: '4876876000000361003', name: 'North America' },
		});
		expect(out[0].json.account_rule_criteria).toEqual({
			field: 'Billing_State',
			comparator: 'equal',
			value: 'Texas',
		});
	});

	test('Get with a non-numeric ID fails before sending', async () => {
		await crm.clearRequests();
		const get = crm.node('crmAdmin', {
			resource: 'territory',
			operation: 'get',
			territoryId: 'not-an-id',
		});
		expect(errorOf(await crm.run(get), get.name)?.message).toContain('Territory ID must be digits');
		expect(await crm.requests()).toEqual([]);
	});
});
