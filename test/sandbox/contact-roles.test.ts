// Contract tests of the contact-role routes (docs/protocol.md §5.9, §3.10 route order) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({
	scope: 'CRM.modules.ALL',
	sandbox: { knobs: { contactRolesMax: 12 } },
});
const { call } = sb;

describe('settings contact roles', () => {
	it('lists the seeded roles in sequence; GetContactRole; unknown id 204', async () => {
		const res = await call('GET', '/crm/v2.1/Contacts/roles');
		expect(res.status).toBe(200);
		expect(res.body.contact_roles.map((r: any) => r.sequence_number)).toEqual([
			1, 2, 3, 4, 5, 6, 7, 8,
		]);
		const first = res.body.contact_roles[0];
		expect(first).toEqual({
			id: expect.stringMatching(/^\d{19}$/),
			name: 'Purchasing',
			sequence_number: 1,
		});
		expect((await call('GET', `/crm/v2/Contacts/roles/${first.id}`)).body.contact_roles).toEqual([
			first,
		]);
		expect((await call('GET', '/crm/v2.1/Contacts/roles/4876876999999999999')).status).toBe(204);
	});

	it('creates (201; unique names, DUPLICATE_DATA; limit knob), updates, deletes', async () => {
		const res = await call('POST', '/crm/v2.1/Contacts/roles', {
			body: {
				contact_roles: [
					{ name: 'Champion' },
					{ name: 'champion' },
					{ name: 'purchasing' },
					{},
					{ name: 'Seq', sequence_number: 0 },
				],
			},
		});
		expect(res.status).toBe(201);
		expect(res.body.contact_roles.map((r: any) => r.code)).toEqual([
			'SUCCESS',
			'DUPLICATE_DATA',
			'DUPLICATE_DATA',
			'MANDATORY_NOT_FOUND',
			'INVALID_DATA',
		]);
		expect(res.body.contact_roles[0].message).toBe('contact role added');
		expect(res.body.contact_roles[1].details).toMatchObject({
			api_name: 'name',
			json_path: '$.contact_roles[1].name',
		});
		const champion = res.body.contact_roles[0].details.id;
		expect(
			(await call('GET', `/crm/v2.1/Contacts/roles/${champion}`)).body.contact_roles[0],
		).toMatchObject({ name: 'Champion', sequence_number: 9 });

		const limit = await call('POST', '/crm/v2.1/Contacts/roles', {
			body: { contact_roles: [{ name: 'R10' }, { name: 'R11' }, { name: 'R12' }, { name: 'R13' }] },
		});
		expect(limit.body.contact_roles.map((r: any) => r.code)).toEqual([
			'SUCCESS',
			'SUCCESS',
			'SUCCESS',
			'LIMIT_EXCEEDED',
		]);
		const over = await call('POST', '/crm/v2.1/Contacts/roles', {
			body: { contact_roles: Array.from({ length: 101 }, (_, i) => ({ name: `x${i}` })) },
		});
		expect(over.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 100, api_name: 'contact_roles' },
		});

		const upd = await call('PUT', '/crm/v2.1/Contacts/roles', {
			body: {
				contact_roles: [
					{ id: champion, name: 'Champ' },
					{ id: '4876876999999999999', name: 'x' },
				],
			},
		});
		expect(upd.body.contact_roles.map((r: any) => r.code)).toEqual(['SUCCESS', 'INVALID_DATA']);
		expect(upd.body.contact_roles[0].message).toBe('contact role updated');
		const one = await call('PUT', `/crm/v2.1/Contacts/roles/${champion}`, {
			body: { contact_roles: [{ sequence_number: 50 }] },
		});
		expect(one.body.contact_roles[0].status).toBe('success');
		expect(
			(await call('GET', `/crm/v2.1/Contacts/roles/${champion}`)).body.contact_roles[0],
		).toMatchObject({ name: 'Champ', sequence_number: 50 });

		const r10 = limit.body.contact_roles[0].details.id;
		const del = await call('DELETE', '/crm/v2.1/Contacts/roles', {
			query: { ids: `${r10},4876876999999999999` },
		});
		expect(del.body.contact_roles.map((r: any) => r.status)).toEqual(['success', 'error']);
		expect(del.body.contact_roles[0].message).toBe('contact role deleted');
		expect(
			(await call('DELETE', `/crm/v2.1/Contacts/roles/${champion}`)).body.contact_roles[0].status,
		).toBe('success');
		// ids: required in v2.1, optional in v2 (nothing deleted)
		expect((await call('DELETE', '/crm/v2.1/Contacts/roles')).body.code).toBe(
			'REQUIRED_PARAM_MISSING',
		);
		expect((await call('DELETE', '/crm/v2/Contacts/roles')).status).toBe(204);
	});
});

describe('contact roles on a deal', () => {
	it("add/update/get/list/remove; the deal's Contacts related list shows the same roles", async () => {
		const deal = (
			await call('POST', '/crm/v2.1/Deals', {
				body: {
					data: [{ Deal_Name: 'CR Deal', Stage: 'Qualification', Closing_Date: '2030-01-01' }],
				},
			})
		).body.data[0].details.id;
		const [c1, c2] = (
			await call('POST', '/crm/v2.1/Contacts', {
				body: { data: [{ Last_Name: 'One' }, { Last_Name: 'Two' }] },
			})
		).body.data.map((r: any) => r.details.id);
		const roles = (await call('GET', '/crm/v2.1/Contacts/roles')).body.contact_roles;
		const evaluator = roles.find((r: any) => r.name === 'Evaluator');

		const add = await call('PUT', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c1}`, {
			body: { data: [{ Contact_Role: 'evaluator' }] },
		});
		expect(add.body.data).toEqual([
			{ code: 'SUCCESS', details: { id: c1 }, message: 'relation added', status: 'success' },
		]);
		const byId = await call('PUT', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c2}`, {
			body: { data: [{ Contact_Role: evaluator.id }] },
		});
		expect(byId.body.data[0].status).toBe('success');
		const change = await call('PUT', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c2}`, {
			body: { data: [{ Contact_Role: 'Influencer' }] },
		});
		expect(change.body.data[0].message).toBe('relation updated');

		const one = await call('GET', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c1}`);
		expect(one.body.data[0]).toMatchObject({
			id: c1,
			Last_Name: 'One',
			Contact_Role: { id: evaluator.id, name: 'Evaluator' },
		});
		expect(one.body.info).toMatchObject({ count: 1, more_records: false });
		const list = await call('GET', `/crm/v2.1/Deals/${deal}/Contact_Roles`, {
			query: { ids: `${c1},${c2}` },
		});
		expect(list.body.data.map((c: any) => [c.id, c.Contact_Role.name])).toEqual([
			[c1, 'Evaluator'],
			[c2, 'Influencer'],
		]);
		expect((await call('GET', `/crm/v2.1/Deals/${deal}/Contact_Roles`)).body.code).toBe(
			'REQUIRED_PARAM_MISSING',
		);
		expect((await call('GET', `/crm/v2/Deals/${deal}/Contact_Roles`)).body.data).toHaveLength(2);
		const related = await call('GET', `/crm/v2.1/Deals/${deal}/Contact_Roles`, {
			query: { ids: `${c1},${c2}` },
		});
		expect(related.body.data.map((c: any) => c.Contact_Role.name)).toEqual([
			'Evaluator',
			'Influencer',
		]);

		// renaming a role shows on the links; deleting it clears them
		const influencer = roles.find((r: any) => r.name === 'Influencer');
		await call('PUT', `/crm/v2.1/Contacts/roles/${influencer.id}`, {
			body: { contact_roles: [{ name: 'Key Influencer' }] },
		});
		expect(
			(await call('GET', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c2}`)).body.data[0].Contact_Role
				.name,
		).toBe('Key Influencer');
		await call('DELETE', `/crm/v2.1/Contacts/roles/${influencer.id}`);
		expect(
			(await call('GET', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c2}`)).body.data[0].Contact_Role,
		).toBeNull();

		const bad = await call('PUT', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c1}`, {
			body: { data: [{ Contact_Role: 'Nope' }] },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.data[0]).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'Contact_Role' },
		});
		expect(
			(await call('PUT', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c1}`, { body: { data: [{}] } }))
				.body.data[0].code,
		).toBe('MANDATORY_NOT_FOUND');
		const two = await call('PUT', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c1}`, {
			body: { data: [{ Contact_Role: 'Other' }, { Contact_Role: 'Other' }] },
		});
		expect(two.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 1 } });

		const remove = await call('DELETE', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c1}`);
		expect(remove.body.data[0].message).toBe('relation removed');
		expect((await call('GET', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c1}`)).status).toBe(204);
		expect((await call('DELETE', `/crm/v2.1/Deals/${deal}/Contact_Roles/${c1}`)).status).toBe(400);

		// deleting the contact removes its link (cascade)
		await call('DELETE', `/crm/v2.1/Contacts/${c2}`);
		expect((await call('GET', `/crm/v2/Deals/${deal}/Contact_Roles`)).status).toBe(204);
	});

	it('scopes: deal-side routes accept CRM.modules.deals.*, settings need CRM.modules.ALL', async () => {
		const deals = (await grantToken(sb.url, { scope: 'CRM.modules.deals.ALL' })).access_token;
		expect(
			(await api(`${sb.url}/crm/v2/Deals/4876876999999999999/Contact_Roles`, deals)).status,
		).toBe(204);
		expect((await api(`${sb.url}/crm/v2.1/Contacts/roles`, deals)).body.code).toBe(
			'OAUTH_SCOPE_MISMATCH',
		);
	});
});
