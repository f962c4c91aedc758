import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Assignment Rule (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const node = (params: Record<string, unknown>) =>
		crm.node('crmMetadata', { resource: 'assignmentRule', ...params } as any);

	test('Get Many lists every assignment rule (GetAssignmentRules)', async () => {
		const getAll = node({ operation: 'getAll' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.name)).toEqual([
			'Web Lead Round Robin',
			'Trade Show Leads',
			'Enterprise Deal Routing',
			'Escalation Desk',
		]);
		expect(out[0].json.default_assignee).toEqual({
			id: '4876876000000225021',
			name: 'Maria Lopez',
		});
	});

	test('Get answers one rule of a module (GetAssignmentRule); another module fails', async () => {
		const rules = (await crm.api('GET', '/crm/v2.1/settings/automation/assignment_rules')).body
			.assignment_rules;
		const get = node({ operation: 'get', module: 'Cases', ruleId: rules[3].id });
		expect(outputOf(await crm.run(get), get.name).map((i) => i.json)).toEqual([rules[3]]);
		const wrong = node({ operation: 'get', module: 'Leads', ruleId: rules[3].id });
		expect(errorOf(await crm.run(wrong), wrong.name)?.message).toContain('INVALID_DATA');
	});
});
