// CRM Admin › User through n8n's engine against the sandbox: GetUsers (type, paging), GetUser,
// CreateUser (one per call), UpdateUser / UpdateUsers (chunk of one vs. batch), DeleteUser.
import { crmFixture, useCrmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

const ADMIN = '4876876000000225013';
const MARIA = '4876876000000225021';
const JAMES = '4876876000000225029';
const PRIYA = '4876876000000225037';
const SALES_REP = '4876876000000026011';
const MANAGER = '4876876000000026008';
const STANDARD = '4876876000000026017';
const READ_ONLY = '4876876000000026032';

describe('CRM Admin › User (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const user = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmAdmin', { resource: 'user', ...params } as any, extra);
	const requests = async (method: string, prefix: string) =>
		(await crm.requests()).filter((r) => r.method === method && r.url.startsWith(prefix));

	test('Get Many by type pages with Return All and stops at a limit', async () => {
		const all = user({ operation: 'getAll', type: 'ActiveUsers', returnAll: true });
		const out = outputOf(await crm.run(all), all.name);
		expect(out.map((i) => i.json.full_name).sort()).toEqual([
			'James Carter',
			'Maria Lopez',
			'Nina Okafor',
			'Priya Natarajan',
			'Sandbox Admin',
		]);

		await crm.clearRequests();
		const limited = user({ operation: 'getAll', type: 'AllUsers', returnAll: false, limit: 4 });
		const two = outputOf(await crm.run(limited), limited.name);
		expect(two).toHaveLength(4);
		expect((await requests('GET', '/crm/v2.1/users?'))[0].url).toContain('type=AllUsers');
		expect((await requests('GET', '/crm/v2.1/users?'))[0].url).toContain('per_page=4');

		const current = user({ operation: 'getAll', type: 'CurrentUser', returnAll: true });
		expect(outputOf(await crm.run(current), current.name).map((i) => i.json.id)).toEqual([ADMIN]);

		const deleted = user({ operation: 'getAll', type: 'DeletedUsers', returnAll: true });
		expect(outputOf(await crm.run(deleted), deleted.name)).toEqual([]);
	});

	test('Get returns one user; a non-numeric ID fails before anything is sent', async () => {
		const get = user({ operation: 'get', userId: MARIA });
		const [maria] = outputOf(await crm.run(get), get.name);
		expect(maria.json).toMatchObject({
			id: MARIA,
			full_name: 'Maria Lopez',
			role: { name: 'Manager' },
			profile: { name: 'Administrator' },
		});

		await crm.clearRequests();
		const bad = user({ operation: 'get', userId: 'maria' });
		const error = errorOf(await crm.run(bad), bad.name);
		expect(error?.message).toContain('User ID must be digits');
		expect(await requests('GET', '/crm/v2.1/users')).toHaveLength(0);
	});

	test('Create sends one CreateUser call per item; the users exist with role, profile and manager', async () => {
		await crm.clearRequests();
		const create = user({
			operation: 'create',
			email: '={{ $json.email }}',
			lastName: '={{ $json.last }}',
			role: SALES_REP,
			profile: STANDARD,
			additionalFields: { first_name: '={{ $json.first }}', Reporting_To: MARIA, city: 'Reno' },
		});
		const out = outputOf(
			await crm.run(create, [
				{ json: { first: 'Ada', last: 'Stone', email: 'ada.stone@example.com' } },
				{ json: { first: 'Bo', last: 'Lind', email: 'bo.lind@example.com' } },
			]),
			create.name,
		);
		expect(out).toHaveLength(2);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(out[0].json).toMatchObject({
			id: expect.stringMatching(/^\d{19}$/),
			code: 'SUCCESS',
			message: 'User added',
			status: 'success',
		});
		expect(await requests('POST', '/crm/v2.1/users')).toHaveLength(2);

		const stored = await crm.api('GET', `/crm/v2.1/users/${out[1].json.id as string}`);
		expect(stored.body.users[0]).toMatchObject({
			full_name: 'Bo Lind',
			email: 'bo.lind@example.com',
			city: 'Reno',
			status: 'active',
			confirm: false,
			role: { id: SALES_REP, name: 'Sales Rep' },
			profile: { id: STANDARD, name: 'Standard' },
			Reporting_To: { id: MARIA, name: 'Maria Lopez' },
		});
	});

	test('Create: a taken e-mail fails only its item (continue on fail) with the CRM code', async () => {
		const create = user(
			{
				operation: 'create',
				email: '={{ $json.email }}',
				lastName: 'Dup',
				role: SALES_REP,
				profile: STANDARD,
			},
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(create, [
				{ json: { email: 'maria.lopez@sandbox.example' } },
				{ json: { email: 'fresh.one@example.com' } },
			]),
			create.name,
		);
		expect(out[0].json.error).toContain('DUPLICATE_DATA');
		expect(out[0].json.details).toMatchObject({
			code: 'DUPLICATE_DATA',
			details: { api_name: 'email' },
		});
		expect(out[1].json).toMatchObject({ status: 'success', message: 'User added' });
	});

	test('Update: one item uses UpdateUser, several go in one UpdateUsers request', async () => {
		await crm.clearRequests();
		const single = user({
			operation: 'update',
			userId: JAMES,
			updateFields: { phone: '+1 555 0100', role: MANAGER },
		});
		const [one] = outputOf(await crm.run(single), single.name);
		expect(one.json).toMatchObject({
			id: JAMES,
			code: 'SUCCESS',
			message: 'User updated',
			details: { id: JAMES, email: 'james.carter@sandbox.example' },
		});
		expect(await requests('PUT', `/crm/v2.1/users/${JAMES}`)).toHaveLength(1);
		expect((await crm.api('GET', `/crm/v2.1/users/${JAMES}`)).body.users[0]).toMatchObject({
			phone: '+1 555 0100',
			role: { id: MANAGER, name: 'Manager' },
		});

		await crm.clearRequests();
		const many = user({
			operation: 'update',
			userId: '={{ $json.id }}',
			updateFields: { profile: READ_ONLY, city: '={{ $json.city }}' },
		});
		const out = outputOf(
			await crm.run(many, [
				{ json: { id: JAMES, city: 'Austin' } },
				{ json: { id: PRIYA, city: 'Leeds' } },
			]),
			many.name,
		);
		expect(out.map((i) => i.json.id)).toEqual([JAMES, PRIYA]);
		expect(await requests('PUT', '/crm/v2.1/users')).toHaveLength(1);
		expect((await requests('PUT', '/crm/v2.1/users'))[0].url).toBe('/crm/v2.1/users');
		const priya = (await crm.api('GET', `/crm/v2.1/users/${PRIYA}`)).body.users[0];
		expect(priya).toMatchObject({ city: 'Leeds', profile: { id: READ_ONLY, name: 'Read Only' } });
	});

	test('Update refuses an empty change set and surfaces CRM rules (deactivating the primary contact)', async () => {
		const empty = user({ operation: 'update', userId: JAMES, updateFields: {} });
		expect(errorOf(await crm.run(empty), empty.name)?.message).toContain('Add at least one field');
		const primary = user({
			operation: 'update',
			userId: ADMIN,
			updateFields: { status: 'disabled' },
		});
		const error = errorOf(await crm.run(primary), primary.name);
		expect(error?.message).toContain('INVALID_REQUEST');
		expect(error?.message).toContain('Primary contact');
	});

	test('Delete marks the user deleted; Get Many → Deleted Users lists it', async () => {
		const del = user({ operation: 'delete', userId: PRIYA });
		const [out] = outputOf(await crm.run(del), del.name);
		expect(out.json).toEqual({
			id: PRIYA,
			code: 'SUCCESS',
			details: { id: PRIYA },
			message: 'User deleted',
			status: 'success',
		});
		const deleted = user({ operation: 'getAll', type: 'DeletedUsers', returnAll: true });
		expect(outputOf(await crm.run(deleted), deleted.name).map((i) => i.json.id)).toEqual([PRIYA]);
		const again = user({ operation: 'delete', userId: PRIYA });
		expect(errorOf(await crm.run(again), again.name)?.message).toContain('ID_ALREADY_DELETED');
	});
});

describe('CRM Admin › User under a v2 credential', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture({ variant: 'v2' });
	});
	afterAll(async () => await crm.close());

	test('reads go to /crm/v2 and carry no v2.1-only keys', async () => {
		const get = crm.node('crmAdmin', { resource: 'user', operation: 'get', userId: MARIA });
		const [maria] = outputOf(await crm.run(get), get.name);
		expect(maria.json.full_name).toBe('Maria Lopez');
		expect(maria.json).not.toHaveProperty('Isonline');
		expect((await crm.requests()).some((r) => r.url === `/crm/v2/users/${MARIA}`)).toBe(true);
	});
});
