// CRM Admin › Role through n8n's engine against the sandbox: GetRoles, GetRole.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Admin › Role (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	test('Get Many lists the roles, one item each', async () => {
		const getAll = crm.node('crmAdmin', { resource: 'role', operation: 'getAll' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.name)).toEqual([
			'CEO',
			'Manager',
			'Sales Rep',
			'Support Lead',
			'Support Agent',
		]);
		expect(out.every((i) => /^\d{19}$/.test(String(i.json.id)))).toBe(true);
	});

	test('Get returns one role by ID', async () => {
		const get = crm.node('crmAdmin', {
			resource: 'role',
			operation: 'get',
			roleId: '4876876000000026011',
		});
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			id: '4876876000000026011',
			name: 'Sales Rep',
			reporting_to: { id: '4876876000000026008', name: 'Manager' },
		});
	});

	test('Get with a non-numeric ID fails before sending', async () => {
		await crm.clearRequests();
		const get = crm.node('crmAdmin', { resource: 'role', operation: 'get', roleId: 'not-an-id' });
		expect(errorOf(await crm.run(get), get.name)?.message).toContain('Role ID must be digits');
		expect(await crm.requests()).toEqual([]);
	});
});
