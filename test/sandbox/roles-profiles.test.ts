// Contract tests of the sandbox roles and profiles (docs/protocol.md §5.6, §3.7) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';
import { DEMO_USERS } from '../../sandbox/catalogue/org.ts';

const sb = useContractFixture({ scope: 'CRM.settings.roles.READ,CRM.settings.profiles.ALL' });

const get = async (path: string, headers: Record<string, string> = {}, bearer = sb.token) =>
	await api(`${sb.url}${path}`, bearer, { headers });

describe('GetRoles / GetRole', () => {
	it('lists the role hierarchy: every role reports to an existing role except the top one', async () => {
		const res = await get('/crm/v2.1/settings/roles');
		expect(res.status).toBe(200);
		const roles = res.body.roles as any[];
		expect(roles.map((r) => r.name)).toEqual([
			'CEO',
			'Manager',
			'Sales Rep',
			'Support Lead',
			'Support Agent',
		]);
		const byId = new Map(roles.map((r) => [r.id, r]));
		expect(roles.filter((r) => r.reporting_to === null).map((r) => r.name)).toEqual(['CEO']);
		for (const r of roles) {
			expect(r).toEqual(
				expect.objectContaining({
					id: expect.stringMatching(/^\d{19}$/),
					display_label: r.name,
					admin_user: expect.any(Boolean),
					share_with_peers: expect.any(Boolean),
				}),
			);
			if (r.reporting_to) expect(byId.get(r.reporting_to.id)?.name).toBe(r.reporting_to.name);
		}
		expect(byId.get('4876876000000026008').forecast_manager).toEqual({
			id: '4876876000000225021',
			name: 'Maria Lopez',
		});
	});

	it('every role and profile a demo user references exists', async () => {
		const roles = new Set((await get('/crm/v2.1/settings/roles')).body.roles.map((r: any) => r.id));
		const profiles = new Set(
			(await get('/crm/v2.1/settings/profiles')).body.profiles.map((p: any) => p.id),
		);
		for (const u of DEMO_USERS) {
			expect(roles.has(u.role.id)).toBe(true);
			expect(profiles.has(u.profile.id)).toBe(true);
		}
	});

	it('GetRole: one role; unknown id 204; in v2 too', async () => {
		const res = await get('/crm/v2/settings/roles/4876876000000026011');
		expect(res.body.roles).toEqual([
			expect.objectContaining({
				name: 'Sales Rep',
				reporting_to: { id: '4876876000000026008', name: 'Manager' },
			}),
		]);
		expect((await get('/crm/v2.1/settings/roles/4876876000000999999')).status).toBe(204);
	});

	it('needs a roles scope', async () => {
		const other = (await grantToken(sb.url, { scope: 'CRM.settings.profiles.READ' })).access_token;
		expect((await get('/crm/v2.1/settings/roles', {}, other)).body.code).toBe(
			'OAUTH_SCOPE_MISMATCH',
		);
	});
});

describe('GetProfiles / GetProfile', () => {
	it('lists profiles without permissions; GetProfile carries permissions_details and sections', async () => {
		const list = await get('/crm/v2.1/settings/profiles');
		expect(list.status).toBe(200);
		expect(list.body.profiles.map((p: any) => p.name)).toEqual([
			'Administrator',
			'Standard',
			'Read Only',
		]);
		for (const p of list.body.profiles) {
			expect(p).not.toHaveProperty('permissions_details');
			expect(p).toEqual(
				expect.objectContaining({
					created_time: expect.any(String),
					modified_by: expect.objectContaining({ id: expect.any(String) }),
				}),
			);
		}
		expect(list.body.profiles.find((p: any) => p.default).name).toBe('Standard');

		const admin = (await get('/crm/v2.1/settings/profiles/4876876000000026014')).body.profiles[0];
		const standard = (await get('/crm/v2.1/settings/profiles/4876876000000026017')).body
			.profiles[0];
		const readOnly = (await get('/crm/v2.1/settings/profiles/4876876000000026032')).body
			.profiles[0];
		expect(admin.permissions_details.every((p: any) => p.enabled)).toBe(true);
		const enabled = (p: any, name: string) =>
			p.permissions_details.find((d: any) => d.name === name)?.enabled;
		expect(enabled(standard, 'Leads_Create')).toBe(true);
		expect(enabled(standard, 'Deals_Delete')).toBe(false);
		expect(enabled(standard, 'Crm_Implied_Manage_Users')).toBe(false);
		expect(enabled(readOnly, 'Contacts_View')).toBe(true);
		expect(enabled(readOnly, 'Contacts_Edit')).toBe(false);
		// the same permission has the same id in every profile; sections reference those ids
		expect(admin.permissions_details.map((p: any) => p.id)).toEqual(
			readOnly.permissions_details.map((p: any) => p.id),
		);
		const ids = new Set(admin.permissions_details.map((p: any) => p.id));
		const module = admin.sections.find((s: any) => s.name === 'module_level');
		const leads = module.categories.find((c: any) => c.module === 'Leads');
		expect(leads.permissions_details).toHaveLength(4);
		expect(leads.permissions_details.every((id: string) => ids.has(id))).toBe(true);
	});

	it('If-Modified-Since answers 304 when no profile changed since; unknown id 204', async () => {
		expect(
			(
				await get('/crm/v2.1/settings/profiles', {
					'If-Modified-Since': '2999-01-01T00:00:00+00:00',
				})
			).status,
		).toBe(304);
		expect(
			(
				await get('/crm/v2.1/settings/profiles/4876876000000026014', {
					'If-Modified-Since': '2999-01-01T00:00:00Z',
				})
			).status,
		).toBe(304);
		expect(
			(await get('/crm/v2.1/settings/profiles', { 'If-Modified-Since': '2000-01-01T00:00:00Z' }))
				.body.profiles,
		).toHaveLength(3);
		expect((await get('/crm/v2.1/settings/profiles/4876876000000999999')).status).toBe(204);
	});
});
