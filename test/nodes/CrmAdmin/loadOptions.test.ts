/* eslint-disable @typescript-eslint/no-explicit-any */
// Load options built on the admin reads (nodes/shared/methods/admin.ts), called through n8n's
// LoadOptionsContext with the crmOAuth2Api credential against the sandbox. Every node of the
// package shares them (e.g. getUsers for owner fields).
import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { buildAdditionalData, buildWorkflow } from '../../harness/n8n';

describe('shared load options from admin reads', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture();
	});
	afterAll(async () => await crm.close());

	async function load(method: string, nodeName = 'crmAdmin'): Promise<INodePropertyOptions[]> {
		const node = crm.node(nodeName, { resource: 'user', operation: 'create' });
		const workflow = buildWorkflow({ nodes: [node], nodeTypes: crm.nodeTypes });
		const additionalData = buildAdditionalData({ credentialsHelper: crm.helper });
		const ctx = new LoadOptionsContext(workflow, node, additionalData, 'parameters.role');
		const type = crm.nodeTypes[`n8n-nodes-crm-service.${nodeName}`] as any;
		return await type.methods.loadOptions[method].call(ctx as unknown as ILoadOptionsFunctions);
	}

	test('getUsers lists active users only (every page), named by full name', async () => {
		const users = await load('getUsers');
		expect(users.map((u) => u.name)).toEqual(['James Carter', 'Maria Lopez', 'Nina Okafor', 'Priya Natarajan', 'Sandbox Admin']);
		expect(users.find((u) => u.name === 'Maria Lopez')).toEqual({ name: 'Maria Lopez', value: '4876876000000225021', description: 'maria.lopez@sandbox.example' });
	});

	test('getRoles and getProfiles hold the ids user writes need', async () => {
		const roles = await load('getRoles');
		expect(roles.map((r) => r.value)).toEqual(expect.arrayContaining(['4876876000000026005', '4876876000000026008', '4876876000000026011']));
		expect(roles.find((r) => r.name === 'Sales Rep')?.description).toBe('Reports to Manager');
		const profiles = await load('getProfiles');
		expect(profiles.map((p) => p.name)).toEqual(['Administrator', 'Read Only', 'Standard']);
	});

	test('getTerritories, getCurrencies, getTaxes and getVariableGroups', async () => {
		expect((await load('getTerritories')).map((t) => t.name)).toEqual(['California', 'DACH', 'Europe', 'Global', 'North America', 'Texas']);
		expect(await load('getCurrencies')).toEqual([{ name: 'US Dollar (USD) - Base', value: '4876876000000371001', description: 'Exchange rate 1.000000000' }]);
		expect((await load('getTaxes')).map((t) => t.name)).toEqual(['Sales Tax - 8.25 %', 'Service Tax - 5 %', 'VAT - 20 %']);
		expect((await load('getVariableGroups')).map((g) => g.value)).toEqual(['4876876000000391001', '4876876000000391003']);
	});

	test('other nodes of the package offer them too (owner fields)', async () => {
		const users = await load('getUsers', 'crmRecord');
		expect(users).toHaveLength(5);
	});
});
