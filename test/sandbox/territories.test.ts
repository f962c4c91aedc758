// Contract tests of the sandbox territories (docs/protocol.md §5.6, §13) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.settings.territories.ALL,CRM.modules.ALL' });

const get = async (path: string) => await api(`${sb.url}${path}`, sb.token);

describe('GetTerritories / GetTerritory', () => {
	it('v2.1 lists the hierarchy with info; v2 without info', async () => {
		const v21 = await get('/crm/v2.1/settings/territories');
		expect(v21.status).toBe(200);
		const list = v21.body.territories as any[];
		expect(list.map((t) => t.name)).toEqual([
			'Global',
			'North America',
			'Europe',
			'Texas',
			'California',
			'DACH',
		]);
		expect(v21.body.info).toEqual({ per_page: 200, count: 6, page: 1, more_records: false });
		const byId = new Map(list.map((t) => [t.id, t]));
		for (const t of list) {
			if (t.reporting_to) expect(byId.get(t.reporting_to.id)?.name).toBe(t.reporting_to.name);
			expect(['read_write', 'read_only']).toContain(t.permission_type);
			expect(t.modified_time).toMatch(/\+00:00$/);
		}
		expect(byId.get('4876876000000361007')).toMatchObject({
			name: 'Texas',
			reporting_to: { id: '4876876000000361003', name: 'North America' },
			manager: { id: '4876876000000225029', name: 'James Carter' },
			account_rule_criteria: { field: 'Billing_State', comparator: 'equal', value: 'Texas' },
		});
		const v2 = await get('/crm/v2/settings/territories');
		expect(v2.body).not.toHaveProperty('info');
		expect(v2.body.territories).toHaveLength(6);
	});

	it('record operations know exactly the territories GetTerritories lists', async () => {
		const ids = (await get('/crm/v2.1/settings/territories')).body.territories.map(
			(t: any) => t.id as string,
		);
		// GetRecords by territory accepts each listed territory (DACH and California included) and refuses any other id
		for (const id of ids)
			expect([200, 204]).toContain((await get(`/crm/v2.1/Accounts?territory_id=${id}`)).status);
		const unknown = await get('/crm/v2.1/Accounts?territory_id=4876876000000361099');
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { param_name: 'territory_id' },
		});
	});

	it('GetTerritory: one territory (+ info in v2.1); unknown id 204', async () => {
		const res = await get('/crm/v2.1/settings/territories/4876876000000361011');
		expect(res.body.territories).toEqual([
			expect.objectContaining({
				name: 'DACH',
				reporting_to: { id: '4876876000000361005', name: 'Europe' },
			}),
		]);
		expect(res.body.info.count).toBe(1);
		expect((await get('/crm/v2/settings/territories/4876876000000361011')).body).not.toHaveProperty(
			'info',
		);
		expect((await get('/crm/v2.1/settings/territories/4876876000000999999')).status).toBe(204);
	});
});

describe('territory feature switched off', () => {
	it('answers 403 FEATURE_NOT_SUPPORTED', async () => {
		sb.sandbox.config.knobs.territoriesEnabled = false;
		try {
			const res = await get('/crm/v2.1/settings/territories');
			expect(res.status).toBe(403);
			expect(res.body).toEqual({
				code: 'FEATURE_NOT_SUPPORTED',
				details: {},
				message: 'territory feature not enabled',
				status: 'error',
			});
		} finally {
			delete sb.sandbox.config.knobs.territoriesEnabled;
		}
	});
});
