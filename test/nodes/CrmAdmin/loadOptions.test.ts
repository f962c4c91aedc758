// Load options built on the admin reads (nodes/shared/methods/admin.ts), called through n8n's
// LoadOptionsContext with the crmOAuth2Api credential against the sandbox. Every node of the
// package shares them (e.g. getUsers for owner fields).
import type { INodePropertyOptions } from 'n8n-workflow';

import { useCrmFixture } from '../../harness/crm';

describe('shared load options from admin reads', () => {
	const crm = useCrmFixture();

	async function load(method: string, nodeName = 'crmAdmin'): Promise<INodePropertyOptions[]> {
		return await crm.loadOptions(
			nodeName,
			method,
			{ resource: 'user', operation: 'create' },
			'parameters.role',
		);
	}

	test('getUsers lists active users only (every page), named by full name', async () => {
		const users = await load('getUsers');
		expect(users.map((u) => u.name)).toEqual([
			'James Carter',
			'Maria Lopez',
			'Nina Okafor',
			'Priya Natarajan',
			'Sandbox Admin',
		]);
		expect(users.find((u) => u.name === 'Maria Lopez')).toEqual({
			name: 'Maria Lopez',
			value: '4876876000000225021',
			description: 'maria.lopez@sandbox.example',
		});
	});

	test('getRoles and getProfiles hold the ids user writes need', async () => {
		const roles = await load('getRoles');
		expect(roles.map((r) => r.value)).toEqual(
			expect.arrayContaining(['4876876000000026005', '4876876000000026008', '4876876000000026011']),
		);
		expect(roles.find((r) => r.name === 'Sales Rep')?.description).toBe('Reports to Manager');
		const profiles = await load('getProfiles');
		expect(profiles.map((p) => p.name)).toEqual(['Administrator', 'Read Only', 'Standard']);
	});

	test('getTerritories, getCurrencies, getTaxes and getVariableGroups', async () => {
		expect((await load('getTerritories')).map((t) => t.name)).toEqual([
			'California',
			'DACH',
			'Europe',
			'Global',
			'North America',
			'Texas',
		]);
		expect(await load('getCurrencies')).toEqual([
			{
				name: 'US Dollar (USD) - Base',
				value: '4876876000000371001',
				description: 'Exchange rate 1.000000000',
			},
		]);
		expect((await load('getTaxes')).map((t) => t.name)).toEqual([
			'Sales Tax - 8.25 %',
			'Service Tax - 5 %',
			'VAT - 20 %',
		]);
		expect((await load('getVariableGroups')).map((g) => g.value)).toEqual([
			'4876876000000391001',
			'4876876000000391003',
		]);
	});

	test('other nodes of the package offer them too (owner fields)', async () => {
		const users = await load('getUsers', 'crmRecord');
		expect(users).toHaveLength(5);
	});
});
