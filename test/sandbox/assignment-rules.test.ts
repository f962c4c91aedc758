// Contract tests of the sandbox assignment rules (docs/protocol.md §5.7, v2.1 only) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.settings.ALL' });
const { call } = sb;

describe('GetAssignmentRules', () => {
	it('lists every rule with its module and default assignee', async () => {
		const res = await call('GET', '/crm/v2.1/settings/automation/assignment_rules');
		expect(res.status).toBe(200);
		const rules = res.body.assignment_rules;
		expect(rules.map((r: any) => [r.name, r.module.api_name])).toEqual([
			['Web Lead Round Robin', 'Leads'],
			['Trade Show Leads', 'Leads'],
			['Enterprise Deal Routing', 'Deals'],
			['Escalation Desk', 'Cases'],
		]);
		expect(rules[0]).toMatchObject({
			id: expect.stringMatching(/^\d{19}$/),
			description: expect.any(String),
			default_assignee: { id: '4876876000000225021', name: 'Maria Lopez' },
			created_by: { name: 'Sandbox Admin' },
			created_time: expect.stringMatching(/\+00:00$/),
		});
	});

	it('is v2.1 only and needs the assignment-rules scope', async () => {
		expect((await call('GET', '/crm/v2/settings/automation/assignment_rules')).status).toBe(404);
		const narrow = (await grantToken(sb.url, { scope: 'CRM.settings.wizards.READ' })).access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/automation/assignment_rules`, narrow)).status,
		).toBe(401);
		const rules = (await grantToken(sb.url, { scope: 'CRM.settings.assignment_rules.READ' }))
			.access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/automation/assignment_rules`, rules)).status,
		).toBe(200);
	});
});

describe('GetAssignmentRule', () => {
	it('answers one rule of the given module', async () => {
		const rules = (await call('GET', '/crm/v2.1/settings/automation/assignment_rules')).body
			.assignment_rules;
		const res = await call('GET', `/crm/v2.1/settings/automation/assignment_rules/${rules[2].id}`, {
			query: { module: 'deals' },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ assignment_rules: [rules[2]] });
	});

	it("module is required and must be the rule's module; unknown ids answer INVALID_DATA", async () => {
		const rules = (await call('GET', '/crm/v2.1/settings/automation/assignment_rules')).body
			.assignment_rules;
		const missing = await call(
			'GET',
			`/crm/v2.1/settings/automation/assignment_rules/${rules[0].id}`,
		);
		expect(missing.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param_name: 'module' },
		});
		const other = await call(
			'GET',
			`/crm/v2.1/settings/automation/assignment_rules/${rules[0].id}`,
			{ query: { module: 'Cases' } },
		);
		expect(other.status).toBe(400);
		expect(other.body).toMatchObject({ code: 'INVALID_DATA', details: { param_name: 'module' } });
		const unknown = await call(
			'GET',
			'/crm/v2.1/settings/automation/assignment_rules/4876876000000000042',
			{ query: { module: 'Leads' } },
		);
		expect(unknown.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876000000000042', resource_path_index: 3 },
		});
		expect(
			(
				await call('GET', `/crm/v2.1/settings/automation/assignment_rules/${rules[0].id}`, {
					query: { module: 'Nope' },
				})
			).body.code,
		).toBe('INVALID_MODULE');
	});
});
