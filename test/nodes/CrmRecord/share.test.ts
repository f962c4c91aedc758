// Share resource (docs/protocol.md §5.9 sharing rows) through the engine against the sandbox: share with
// users, get the shared details (summary and manage views), update permissions, revoke, and the
// 10-user limit checked by the node before any request.
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

const MARIA = '4876876000000225021';
const JAMES = '4876876000000225029';
const PRIYA = '4876876000000225037';

describe('CRM Record › Share', () => {
	let crm: CrmFixture;
	let dealId: string;

	const shares = async (): Promise<any[]> =>
		(await crm.api('GET', `/crm/v2.1/Deals/${dealId}/actions/share`)).body?.share ?? [];
	const node = (operation: string, params: Record<string, unknown> = {}) =>
		crm.node('crmRecord', {
			resource: 'share',
			operation,
			module: 'Deals',
			recordId: dealId,
			...params,
		});

	beforeAll(async () => {
		crm = await crmFixture();
		// owned by the admin (the token's user), so the demo users can be shared with
		const res = await crm.api('POST', '/crm/v2.1/Deals', {
			data: [{ Deal_Name: 'Shared Deal', Stage: 'Qualification', Closing_Date: '2030-06-30' }],
		});
		dealId = res.body.data[0].details.id;
	});
	afterAll(async () => await crm.close());

	test('share with two users, read the details, update a permission, revoke', async () => {
		const share = node('share', {
			users: {
				user: [
					{ userId: MARIA, permission: 'read_write', shareRelatedRecords: true },
					{ userId: JAMES, permission: 'read_only' },
				],
			},
		});
		const shared = outputOf(await crm.run(share), share.name);
		expect(shared.map((i) => i.json.message)).toEqual([
			'record will be shared successfully',
			'record will be shared successfully',
		]);
		expect((await shares()).map((s) => [s.user.id, s.permission, s.share_related_records])).toEqual(
			[
				[MARIA, 'read_write', true],
				[JAMES, 'read_only', false],
			],
		);

		const get = node('get');
		const details = outputOf(await crm.run(get), get.name);
		expect(details.map((i) => (i.json.user as any).id)).toEqual([MARIA, JAMES]);

		const manage = node('get', { options: { view: 'manage' } });
		const [managed] = outputOf(await crm.run(manage), manage.name);
		expect((managed.json.shared_with as any[]).map((s) => s.user.id)).toEqual([MARIA, JAMES]);
		expect((managed.json.shareable_user as any[]).map((u) => u.id)).toEqual(
			expect.arrayContaining([PRIYA]),
		);

		const only = node('get', { options: { sharedTo: JAMES } });
		expect(outputOf(await crm.run(only), only.name).map((i) => (i.json.user as any).id)).toEqual([
			JAMES,
		]);

		const update = node('update', {
			users: { user: [{ userId: JAMES, permission: 'full_access' }] },
		});
		outputOf(await crm.run(update), update.name);
		expect((await shares()).find((s) => s.user.id === JAMES).permission).toBe('full_access');

		const revoke = node('revoke');
		const [revoked] = outputOf(await crm.run(revoke), revoke.name);
		expect(revoked.json).toMatchObject({ code: 'SUCCESS', message: 'Sharing Revoked' });
		expect((await crm.api('GET', `/crm/v2.1/Deals/${dealId}/actions/share`)).status).toBe(204);

		// nothing left to revoke
		expect(errorOf(await crm.run(revoke), revoke.name)?.message).toContain('INVALID_DATA');
	});

	test('sharing twice with the same user is refused by the sandbox (DUPLICATE_DATA)', async () => {
		const share = node('share', { users: { user: [{ userId: PRIYA, permission: 'read_only' }] } });
		outputOf(await crm.run(share), share.name);
		const error = errorOf(await crm.run(share), share.name);
		expect(error?.message).toContain('DUPLICATE_DATA');
		expect((await shares()).map((s) => s.user.id)).toEqual([PRIYA]);
	});

	test('11 users to share with are refused by the node before any request, naming the limit', async () => {
		await crm.clearRequests();
		const users = Array.from({ length: 11 }, (_, i) => ({
			userId: String(4876876000000225100n + BigInt(i)),
			permission: 'read_only',
		}));
		const share = node('share', { users: { user: users } });
		const error = errorOf(await crm.run(share), share.name);
		expect(error?.message).toContain('at most 10 users');
		expect((await crm.requests()).filter((r) => r.url.includes('/actions/share'))).toHaveLength(0);
	});
});
