// CRM Admin › Profile through n8n's engine against the sandbox: GetProfiles, GetProfile.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Admin › Profile (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	test('Get Many lists the profiles, one item each', async () => {
		const getAll = crm.node('crmAdmin', { resource: 'profile', operation: 'getAll' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.name)).toEqual(['Administrator', 'Standard', 'Read Only']);
		expect(out.every((i) => /^\d{19}$/.test(String(i.json.id)))).toBe(true);
	});

	test('Get returns one profile by ID', async () => {
		const get = crm.node('crmAdmin', {
			resource: 'profile',
			operation: 'get',
			profileId: '4876876000000026017',
		});
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			id: '4876876000000026017',
			name: 'Standard',
			default: true,
		});
		// GetProfile carries the permissions the list leaves out
		expect(out[0].json.permissions_details).toEqual(
			expect.arrayContaining([expect.objectContaining({ name: 'Leads_View', enabled: true })]),
		);
		const listed = outputOf(
			await crm.run(
				crm.node('crmAdmin', { resource: 'profile', operation: 'getAll' }, { name: 'List' }),
			),
			'List',
		);
		expect(listed[0].json).not.toHaveProperty('permissions_details');
	});

	test('Get with a non-numeric ID fails before sending', async () => {
		await crm.clearRequests();
		const get = crm.node('crmAdmin', {
			resource: 'profile',
			operation: 'get',
			profileId: 'not-an-id',
		});
		expect(errorOf(await crm.run(get), get.name)?.message).toContain('Profile ID must be digits');
		expect(await crm.requests()).toEqual([]);
	});
});
