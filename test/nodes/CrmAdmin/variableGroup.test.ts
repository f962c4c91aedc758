// CRM Admin › Variable Group through n8n's engine against the sandbox: GetVariableGroups,
// GetVariableGroupById, GetVariableGroupByAPIName.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Admin › Variable Group (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	test('Get Many lists the groups; Get reads one by ID or by API name', async () => {
		const getAll = crm.node('crmAdmin', { resource: 'variableGroup', operation: 'getAll' });
		expect(outputOf(await crm.run(getAll), getAll.name).map((i) => i.json.api_name)).toEqual([
			'General',
			'Integrations',
		]);
		const byId = crm.node('crmAdmin', {
			resource: 'variableGroup',
			operation: 'get',
			getBy: 'id',
			groupId: '4876876000000391003',
		});
		expect(outputOf(await crm.run(byId), byId.name).map((i) => i.json.api_name)).toEqual([
			'Integrations',
		]);
		const byName = crm.node('crmAdmin', {
			resource: 'variableGroup',
			operation: 'get',
			getBy: 'apiName',
			groupApiName: 'General',
		});
		expect(outputOf(await crm.run(byName), byName.name)[0].json).toMatchObject({
			id: '4876876000000391001',
			display_label: 'General',
		});
		expect(
			(await crm.requests()).some((r) => r.url === '/crm/v2.1/settings/variable_groups/General'),
		).toBe(true);
	});

	test('a malformed key fails before sending', async () => {
		const bad = crm.node('crmAdmin', {
			resource: 'variableGroup',
			operation: 'get',
			getBy: 'id',
			groupId: 'General',
		});
		expect(errorOf(await crm.run(bad), bad.name)?.message).toContain(
			'Variable Group ID must be digits',
		);
	});
});
