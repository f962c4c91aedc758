// Contract tests of the sandbox users group (docs/protocol.md §5.6, §3.6–3.8, §6, §11) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import type { ApiInit } from '../harness/sandbox.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const ADMIN = '4876876000000225013';
const MARIA = '4876876000000225021';
const JAMES = '4876876000000225029';
const TOM = '4876876000000225045'; // disabled
const NINA = '4876876000000225053'; // invited, not confirmed
const SALES_REP = '4876876000000026011';
const STANDARD = '4876876000000026017';
const ID = /^\d{19}$/;

const sb = useContractFixture({ scope: 'CRM.users.ALL,CRM.org.READ' });

const call = async (
	method: string,
	path: string,
	init: Omit<ApiInit, 'method'> = {},
	bearer = sb.token,
) => await api(`${sb.url}${path}`, bearer, { ...init, method });

const newUser = (n: string, extra: Record<string, unknown> = {}) => ({
	last_name: `Tester ${n}`,
	email: `tester.${n}@example.com`,
	role: SALES_REP,
	profile: { id: STANDARD },
	...extra,
});

const ids = (res: any) => res.body.users.map((u: any) => u.id).sort();

describe('GetUsers', () => {
	it('lists every live user by default (AllUsers) with info, ids as strings', async () => {
		const res = await call('GET', '/crm/v2.1/users');
		expect(res.status).toBe(200);
		expect(res.body.info).toEqual({ per_page: 200, count: 6, page: 1, more_records: false });
		expect(ids(res)).toEqual([ADMIN, MARIA, JAMES, '4876876000000225037', TOM, NINA].sort());
		for (const u of res.body.users) {
			expect(u.id).toMatch(ID);
			expect(u).toEqual(
				expect.objectContaining({
					full_name: expect.any(String),
					email: expect.any(String),
					status: expect.any(String),
				}),
			);
			expect(u.role).toEqual({ id: expect.stringMatching(ID), name: expect.any(String) });
			expect(u.profile).toEqual({ id: expect.stringMatching(ID), name: expect.any(String) });
		}
	});

	it.each([
		['ActiveUsers', [ADMIN, MARIA, JAMES, '4876876000000225037', NINA]],
		['DeactiveUsers', [TOM]],
		['ConfirmedUsers', [ADMIN, MARIA, JAMES, '4876876000000225037']],
		['NotConfirmedUsers', [TOM, NINA]],
		['ActiveConfirmedUsers', [ADMIN, MARIA, JAMES, '4876876000000225037']],
		['AdminUsers', [ADMIN, MARIA]],
		['ActiveConfirmedAdmins', [ADMIN, MARIA]],
		['CurrentUser', [ADMIN]],
	])('type=%s', async (type, expected) => {
		const res = await call('GET', '/crm/v2.1/users', { query: { type } });
		expect(res.status).toBe(200);
		expect(ids(res)).toEqual([...expected].sort());
	});

	it('DeletedUsers with nobody deleted answers 204', async () => {
		expect((await call('GET', '/crm/v2.1/users', { query: { type: 'DeletedUsers' } })).status).toBe(
			204,
		);
	});

	it('CurrentUser is the token user', async () => {
		const minted = await api(`${sb.url}/__sandbox/tokens`, undefined, {
			method: 'POST',
			body: { scope: 'CRM.users.READ', user_id: JAMES },
		});
		const res = await call(
			'GET',
			'/crm/v2.1/users',
			{ query: { type: 'CurrentUser' } },
			minted.body.access_token,
		);
		expect(ids(res)).toEqual([JAMES]);
	});

	it('pages with page/per_page and more_records', async () => {
		const first = await call('GET', '/crm/v2.1/users', { query: { per_page: 4 } });
		expect(first.body.info).toEqual({ per_page: 4, count: 4, page: 1, more_records: true });
		const second = await call('GET', '/crm/v2.1/users', { query: { per_page: 4, page: 2 } });
		expect(second.body.info).toEqual({ per_page: 4, count: 2, page: 2, more_records: false });
		expect(new Set([...ids(first), ...ids(second)]).size).toBe(6);
		expect((await call('GET', '/crm/v2.1/users', { query: { per_page: 4, page: 3 } })).status).toBe(
			204,
		);
		const bad = await call('GET', '/crm/v2.1/users', { query: { per_page: 201 } });
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: 'INVALID_DATA', details: { param_name: 'per_page' } });
	});

	it('an unknown type is 400 INVALID_DATA naming the parameter', async () => {
		const v21 = await call('GET', '/crm/v2.1/users', { query: { type: 'SomeUsers' } });
		expect(v21.status).toBe(400);
		expect(v21.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { param_name: 'type' },
			status: 'error',
		});
		const v2 = await call('GET', '/crm/v2/users', { query: { type: 'SomeUsers' } });
		expect(v2.body.details).toEqual({ param: 'type' });
	});

	it('v2.1 adds Isonline, sandboxDeveloper, category, sort_order_preference; v2 does not', async () => {
		const v21 = (await call('GET', `/crm/v2.1/users/${MARIA}`)).body.users[0];
		const v2 = (await call('GET', `/crm/v2/users/${MARIA}`)).body.users[0];
		for (const key of ['Isonline', 'sandboxDeveloper', 'category', 'sort_order_preference']) {
			expect(v21).toHaveProperty(key);
			expect(v2).not.toHaveProperty(key);
		}
		expect(v2.territories).toEqual([
			{ id: '4876876000000361003', name: 'North America', manager: true },
		]);
		expect(v2.Reporting_To).toEqual({ id: ADMIN, name: 'Sandbox Admin' });
	});

	it('If-Modified-Since: 304 when nothing changed, else only the changed users', async () => {
		const future = '2999-01-01T00:00:00+00:00';
		expect(
			(await call('GET', '/crm/v2.1/users', { headers: { 'If-Modified-Since': future } })).status,
		).toBe(304);
		expect(
			(await call('GET', `/crm/v2.1/users/${ADMIN}`, { headers: { 'If-Modified-Since': future } }))
				.status,
		).toBe(304);
		const past = await call('GET', '/crm/v2.1/users', {
			headers: { 'If-Modified-Since': '2000-01-01T00:00:00Z' },
		});
		expect(past.body.users).toHaveLength(6);
	});
});

describe('GetUser', () => {
	it('answers users + info; unknown id 204; a non-numeric id 404', async () => {
		const res = await call('GET', `/crm/v2.1/users/${JAMES}`);
		expect(res.status).toBe(200);
		expect(res.body.users).toHaveLength(1);
		expect(res.body.users[0]).toMatchObject({
			id: JAMES,
			full_name: 'James Carter',
			role: { name: 'Sales Rep' },
		});
		expect(res.body.info).toMatchObject({ count: 1, more_records: false });
		expect((await call('GET', '/crm/v2.1/users/4876876000000999999')).status).toBe(204);
		const notId = await call('GET', '/crm/v2.1/users/james');
		expect(notId.status).toBe(404);
		expect(notId.body.code).toBe('INVALID_URL_PATTERN');
	});
});

describe('CreateUser', () => {
	it('creates a user: 201 User added with details.id; stored as active, not confirmed', async () => {
		const res = await call('POST', '/crm/v2.1/users', {
			body: { users: [newUser('one', { first_name: 'Ann', Reporting_To: { id: MARIA } })] },
		});
		expect(res.status).toBe(201);
		expect(res.body.users).toEqual([
			{
				code: 'SUCCESS',
				details: { id: expect.stringMatching(ID) },
				message: 'User added',
				status: 'success',
			},
		]);
		const id = res.body.users[0].details.id;
		const stored = (await call('GET', `/crm/v2.1/users/${id}`)).body.users[0];
		expect(stored).toMatchObject({
			id,
			full_name: 'Ann Tester one',
			email: 'tester.one@example.com',
			status: 'active',
			confirm: false,
			role: { id: SALES_REP, name: 'Sales Rep' },
			profile: { id: STANDARD, name: 'Standard' },
			Reporting_To: { id: MARIA, name: 'Maria Lopez' },
			created_by: { id: ADMIN },
		});
		expect(stored.created_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
	});

	it('per-item errors in input order; mixed result is 201, all failed 400', async () => {
		const res = await call('POST', '/crm/v2.1/users', {
			body: {
				users: [
					newUser('two'),
					newUser('x', { email: 'ADMIN@sandbox.example' }),
					newUser('y', { last_name: '' }),
					newUser('z', { email: 'not-an-email' }),
					newUser('w', { role: '4876876000000000000' }),
					newUser('v', { profile: undefined }),
					newUser('two'),
				],
			},
		});
		expect(res.status).toBe(201);
		expect(res.body.users.map((u: any) => u.code)).toEqual([
			'SUCCESS',
			'DUPLICATE_DATA',
			'MANDATORY_NOT_FOUND',
			'PATTERN_NOT_MATCHED',
			'INVALID_DATA',
			'MANDATORY_NOT_FOUND',
			'DUPLICATE_DATA',
		]);
		expect(res.body.users[1]).toEqual({
			code: 'DUPLICATE_DATA',
			details: { api_name: 'email', json_path: '$.users[1].email' },
			message: 'same email already present',
			status: 'error',
		});
		expect(res.body.users[2].details).toEqual({
			api_name: 'last_name',
			json_path: '$.users[2].last_name',
		});
		expect(res.body.users[4].details.api_name).toBe('role');
		expect(res.body.users[5].details.api_name).toBe('profile');

		const v2 = await call('POST', '/crm/v2/users', {
			body: { users: [newUser('q', { last_name: undefined })] },
		});
		expect(v2.status).toBe(400);
		expect(v2.body.users[0]).toEqual({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'last_name' },
			message: 'required field not found',
			status: 'error',
		});
	});

	it('wrapper bounds: missing key MANDATORY_NOT_FOUND, more than 100 LIMIT_EXCEEDED', async () => {
		const missing = await call('POST', '/crm/v2.1/users', { body: { user: [] } });
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'users' },
		});
		const many = await call('POST', '/crm/v2.1/users', {
			body: { users: Array.from({ length: 101 }, (_, i) => newUser(`m${i}`)) },
		});
		expect(many.status).toBe(400);
		expect(many.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 100, api_name: 'users' },
		});
	});

	it('a token with CRM.users.READ only cannot create (OAUTH_SCOPE_MISMATCH)', async () => {
		const read = (await grantToken(sb.url, { scope: 'CRM.users.READ' })).access_token;
		expect((await call('GET', '/crm/v2.1/users', {}, read)).status).toBe(200);
		const res = await call(
			'POST',
			'/crm/v2.1/users',
			{ body: { users: [newUser('scope')] } },
			read,
		);
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});

describe('UpdateUsers / UpdateUser', () => {
	it('updates several users by id: User updated with details {id, email}', async () => {
		const res = await call('PUT', '/crm/v2.1/users', {
			body: {
				users: [
					{ id: JAMES, phone: '+1 713 555 0199', role: { id: '4876876000000026008' } },
					{ id: NINA, email: 'nina.o@sandbox.example' },
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.users).toEqual([
			{
				code: 'SUCCESS',
				details: { id: JAMES, email: 'james.carter@sandbox.example' },
				message: 'User updated',
				status: 'success',
			},
			{
				code: 'SUCCESS',
				details: { id: NINA, email: 'nina.o@sandbox.example' },
				message: 'User updated',
				status: 'success',
			},
		]);
		const james = (await call('GET', `/crm/v2.1/users/${JAMES}`)).body.users[0];
		expect(james).toMatchObject({
			phone: '+1 713 555 0199',
			role: { id: '4876876000000026008', name: 'Manager' },
			Modified_By: { id: ADMIN },
		});
	});

	it('refuses by rule: confirmed e-mail, repeated status, primary contact, other user time zone, missing / unknown id', async () => {
		const res = await call('PUT', '/crm/v2.1/users', {
			body: {
				users: [
					{ id: MARIA, email: 'maria.new@sandbox.example' },
					{ id: TOM, status: 'disabled' },
					{ id: JAMES, status: 'active' },
					{ id: ADMIN, status: 'disabled' },
					{ id: MARIA, time_zone: 'Asia/Tokyo' },
					{ last_name: 'No Id' },
					{ id: '4876876000000999999', city: 'Nowhere' },
					{ id: JAMES, status: 'archived' },
				],
			},
		});
		expect(res.status).toBe(400);
		expect(res.body.users.map((u: any) => [u.code, u.message])).toEqual([
			['EMAIL_UPDATE_NOT_ALLOWED', 'cannot update email of a confirmed user'],
			['ID_ALREADY_DEACTIVATED', 'user already deactivated'],
			['ID_ALREADY_ACTIVE', 'user already active'],
			['INVALID_REQUEST', 'primary contact cannot be deleted or deactivated'],
			['INVALID_REQUEST', 'cannot update the time zone of another user'],
			['MANDATORY_NOT_FOUND', 'required field not found'],
			['INVALID_DATA', 'the id given seems to be invalid'],
			['INVALID_DATA', 'invalid data'],
		]);
		// the token user may change their own time zone
		const own = await call('PUT', `/crm/v2.1/users/${ADMIN}`, {
			body: { users: [{ time_zone: 'America/Chicago' }] },
		});
		expect(own.body.users[0].code).toBe('SUCCESS');
	});

	it('UpdateUser takes exactly one item and the id from the path', async () => {
		const two = await call('PUT', `/crm/v2.1/users/${JAMES}`, {
			body: { users: [{ city: 'A' }, { city: 'B' }] },
		});
		expect(two.status).toBe(400);
		expect(two.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 1 } });
		const one = await call('PUT', `/crm/v2.1/users/${JAMES}`, {
			body: { users: [{ first_name: 'Jim' }] },
		});
		expect(one.status).toBe(200);
		expect((await call('GET', `/crm/v2.1/users/${JAMES}`)).body.users[0].full_name).toBe(
			'Jim Carter',
		);
	});
});

describe('licence limit', () => {
	it('creating or re-activating beyond users_license_purchased answers LICENSE_LIMIT_EXCEEDED', async () => {
		const limit = (await call('GET', '/crm/v2.1/org')).body.org[0].license_details
			.users_license_purchased;
		const active = (await call('GET', '/crm/v2.1/users', { query: { type: 'ActiveUsers' } })).body
			.users.length;
		const free = limit - active;
		expect(free).toBeGreaterThan(0);
		const res = await call('POST', '/crm/v2.1/users', {
			body: { users: Array.from({ length: free + 1 }, (_, i) => newUser(`lic${i}`)) },
		});
		expect(res.status).toBe(201);
		expect(res.body.users.slice(0, free).every((u: any) => u.code === 'SUCCESS')).toBe(true);
		expect(res.body.users[free]).toEqual({
			code: 'LICENSE_LIMIT_EXCEEDED',
			details: {},
			message: 'licence limit exceeded',
			status: 'error',
		});
		const reactivate = await call('PUT', `/crm/v2.1/users/${TOM}`, {
			body: { users: [{ status: 'active' }] },
		});
		expect(reactivate.status).toBe(400);
		expect(reactivate.body.users[0].code).toBe('LICENSE_LIMIT_EXCEEDED');
		// deactivating someone frees a licence
		expect(
			(await call('PUT', `/crm/v2.1/users/${NINA}`, { body: { users: [{ status: 'disabled' }] } }))
				.body.users[0].code,
		).toBe('SUCCESS');
		expect(
			(await call('PUT', `/crm/v2.1/users/${TOM}`, { body: { users: [{ status: 'active' }] } }))
				.body.users[0].code,
		).toBe('SUCCESS');
	});
});

describe('DeleteUser', () => {
	it('deletes: User deleted; the user moves to DeletedUsers; again ID_ALREADY_DELETED; no more updates', async () => {
		const res = await call('DELETE', `/crm/v2.1/users/${TOM}`);
		expect(res.status).toBe(200);
		expect(res.body.users).toEqual([
			{ code: 'SUCCESS', details: { id: TOM }, message: 'User deleted', status: 'success' },
		]);
		expect(ids(await call('GET', '/crm/v2.1/users', { query: { type: 'DeletedUsers' } }))).toEqual([
			TOM,
		]);
		expect(ids(await call('GET', '/crm/v2.1/users')).includes(TOM)).toBe(false);
		const again = await call('DELETE', `/crm/v2.1/users/${TOM}`);
		expect(again.status).toBe(400);
		expect(again.body.users[0]).toMatchObject({ code: 'ID_ALREADY_DELETED', details: { id: TOM } });
		const update = await call('PUT', `/crm/v2.1/users/${TOM}`, {
			body: { users: [{ city: 'X' }] },
		});
		expect(update.body.users[0]).toMatchObject({
			code: 'CANNOT_UPDATE_DELETED_USER',
			message: 'deleted user cannot be updated',
		});
		// the deleted user's e-mail is free again
		const reuse = await call('POST', '/crm/v2.1/users', {
			body: { users: [newUser('tom', { email: 'tom.becker@sandbox.example' })] },
		});
		expect(reuse.body.users[0].code).not.toBe('DUPLICATE_DATA');
	});

	it('the primary contact cannot be deleted; an unknown id is INVALID_DATA', async () => {
		const primary = await call('DELETE', `/crm/v2.1/users/${ADMIN}`);
		expect(primary.status).toBe(400);
		expect(primary.body.users[0]).toMatchObject({
			code: 'INVALID_REQUEST',
			message: 'primary contact cannot be deleted or deactivated',
		});
		const unknown = await call('DELETE', '/crm/v2.1/users/4876876000000999999');
		expect(unknown.body.users[0]).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876000000999999' },
		});
	});
});
