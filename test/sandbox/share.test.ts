// Contract tests of the sharing routes (docs/protocol.md §5.9, §6 sharing limits) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL,CRM.share.ALL' });
const { call } = sb;
let deal: string;
const ADMIN = '4876876000000225013';
const MARIA = '4876876000000225021';
const TOM_DISABLED = '4876876000000225045';
const extraUsers: string[] = [];
const path = () => `/crm/v2.1/Deals/${deal}/actions/share`;
const item = (id: string, permission = 'read_only', extra: Record<string, unknown> = {}) => ({
	user: { id },
	permission,
	...extra,
});

beforeAll(async () => {
	deal = (
		await call('POST', '/crm/v2.1/Deals', {
			body: {
				data: [{ Deal_Name: 'Share Me', Stage: 'Qualification', Closing_Date: '2030-01-01' }],
			},
		})
	).body.data[0].details.id;
	// enough active users to reach the 10-user limit, set up in the store: CreateUser stops at the
	// seeded organization's user licences (LICENSE_LIMIT_EXCEEDED) and no API adds licences
	for (let i = 0; i < 12; i++) {
		const id = String(4876876000000226000n + BigInt(i));
		sb.sandbox.store.putDoc('users', id, {
			id,
			full_name: `Extra ${i}`,
			email: `extra${i}@sandbox.example`,
			status: 'active',
		});
		extraUsers.push(id);
	}
});

describe('ShareRecord / GetSharedRecordDetails', () => {
	it('shares, reads summary / sharedTo / manage, refuses owner, duplicates, bad users and permissions per item', async () => {
		expect((await call('GET', path())).status).toBe(204);
		const res = await call('POST', path(), {
			body: {
				share: [
					item(MARIA, 'read_write', { share_related_records: true }),
					item(ADMIN),
					item(MARIA),
					item('4876876999999999999'),
					item(TOM_DISABLED),
					item(extraUsers[0], 'owner'),
					{ permission: 'read_only' },
					item(extraUsers[0], 'full_access', { share_related_records: 'yes' }),
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.share.map((r: any) => r.code)).toEqual([
			'SUCCESS',
			'DUPLICATE_DATA',
			'DUPLICATE_DATA',
			'INVALID_DATA',
			'INVALID_DATA',
			'INVALID_DATA',
			'MANDATORY_NOT_FOUND',
			'INVALID_DATA',
		]);
		expect(res.body.share[0]).toEqual({
			code: 'SUCCESS',
			details: { id: MARIA },
			message: 'record will be shared successfully',
			status: 'success',
		});
		expect(res.body.share[1].message).toBe('record is already visible to the user');
		expect(res.body.share[5]).toMatchObject({
			message: 'permission is invalid',
			details: { api_name: 'permission', json_path: '$.share[5].permission' },
		});

		const summary = await call('GET', path());
		expect(summary.body.share).toEqual([
			expect.objectContaining({
				user: expect.objectContaining({ id: MARIA, name: 'Maria Lopez' }),
				permission: 'read_write',
				share_related_records: true,
				shared_by: { id: ADMIN, name: 'Sandbox Admin' },
				shared_through: { module: 'Deals', id: deal, entity_name: 'Share Me' },
				shared_time: expect.stringMatching(/\+00:00$/),
			}),
		]);
		expect(summary.body.shareable_user).toBeUndefined();
		expect((await call('GET', path(), { query: { sharedTo: ADMIN } })).status).toBe(204);
		const manage = await call('GET', path(), { query: { view: 'manage' } });
		expect(manage.body.shareable_user.map((u: any) => u.id)).toEqual(
			expect.arrayContaining([MARIA, ...extraUsers]),
		);
		expect(manage.body.shareable_user.map((u: any) => u.id)).not.toContain(TOM_DISABLED);
		expect((await call('GET', path(), { query: { view: 'all' } })).body.code).toBe('INVALID_DATA');
	});

	it('limits: 11 items → SHARE_LIMIT_EXCEEDED; the 11th user of a record → per-item SHARE_LIMIT_EXCEEDED', async () => {
		const eleven = await call('POST', path(), {
			body: { share: extraUsers.slice(0, 11).map((id) => item(id)) },
		});
		expect(eleven.status).toBe(400);
		expect(eleven.body).toMatchObject({
			code: 'SHARE_LIMIT_EXCEEDED',
			message: 'cannot share a record to more than 10 users',
			details: { limit: 10 },
		});
		// Maria + 9 extra = 10 users; the 10th extra is one too many
		const res = await call('POST', path(), {
			body: { share: extraUsers.slice(0, 10).map((id) => item(id)) },
		});
		expect(res.status).toBe(200);
		expect(res.body.share.slice(0, 9).every((r: any) => r.status === 'success')).toBe(true);
		expect(res.body.share[9]).toMatchObject({
			code: 'SHARE_LIMIT_EXCEEDED',
			message: 'cannot share a record to more than 10 users',
		});
		expect((await call('GET', path())).body.share).toHaveLength(10);
		expect((await call('POST', path(), { body: { share: [] } })).body.code).toBe(
			'MANDATORY_NOT_FOUND',
		);
		expect((await call('POST', path(), { body: {} })).body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'share' },
		});
	});
});

describe('UpdateSharePermissions / RevokeSharedRecord', () => {
	it('updates permissions; revokes all; nothing to revoke → INVALID_DATA; unknown record → ENTITY_ID_INVALID', async () => {
		const upd = await call('PUT', path(), { body: { share: [item(MARIA, 'full_access')] } });
		expect(upd.body.share[0].status).toBe('success');
		const shares = (await call('GET', path(), { query: { sharedTo: MARIA } })).body.share;
		expect(shares).toEqual([expect.objectContaining({ permission: 'full_access' })]);

		const revoke = await call('DELETE', path());
		expect(revoke.status).toBe(200);
		expect(revoke.body).toEqual({
			share: { code: 'SUCCESS', details: {}, message: 'Sharing Revoked', status: 'success' },
		});
		const again = await call('DELETE', path());
		expect(again.status).toBe(400);
		expect(again.body).toMatchObject({
			code: 'INVALID_DATA',
			message: 'no sharing available to revoke',
		});
		expect((await call('GET', '/crm/v2.1/Deals/4876876999999999999/actions/share')).body.code).toBe(
			'ENTITY_ID_INVALID',
		);
	});

	it('scopes: CRM.share.{mod}.{ACCESS}; deleting the record drops its sharing', async () => {
		const readOnly = (await grantToken(sb.url, { scope: 'CRM.share.deals.READ' })).access_token;
		expect((await api(`${sb.url}${path()}`, readOnly)).status).toBe(204);
		expect(
			(
				await api(`${sb.url}${path()}`, readOnly, {
					method: 'POST',
					body: { share: [item(MARIA)] },
				})
			).body.code,
		).toBe('OAUTH_SCOPE_MISMATCH');
		await call('POST', path(), { body: { share: [item(MARIA)] } });
		expect((await call('GET', path())).body.share.map((s: any) => s.user.id)).toContain(MARIA);
		await call('DELETE', `/crm/v2.1/Deals/${deal}`);
		expect((await call('GET', path())).body.code).toBe('ENTITY_ID_INVALID');
	});
});
