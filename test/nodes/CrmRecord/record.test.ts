import { crmFixture, useCrmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Record › Record (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const fields = (pairs: Record<string, string>) => ({
		field: Object.entries(pairs).map(([name, value]) => ({ name, value })),
	});

	test('create → get → update → get many → delete round trip', async () => {
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'pairs',
			fieldsUi: fields({
				Last_Name: '={{ $json.last }}',
				Email: '={{ $json.email }}',
				No_of_Employees: '42',
				Email_Opt_Out: 'true',
			}),
		});
		const created = outputOf(
			await crm.run(create, [
				{ json: { last: 'Round', email: 'round.trip@example.com' } },
				{ json: { last: 'Trip', email: 'trip.round@example.com' } },
			]),
			create.name,
		);
		expect(created).toHaveLength(2);
		expect(created.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const id = created[0].json.id as string;
		expect(id).toMatch(/^\d{19}$/);
		expect(created[0].json).toMatchObject({ status: 'success', code: 'SUCCESS', action: 'insert' });

		// typed values reached the store
		const stored = await crm.api('GET', `/crm/v2.1/Leads/${id}`);
		expect(stored.body.data[0]).toMatchObject({
			Last_Name: 'Round',
			Email: 'round.trip@example.com',
			No_of_Employees: 42,
			Email_Opt_Out: true,
		});

		const get = crm.node('crmRecord', {
			resource: 'record',
			operation: 'get',
			module: 'Leads',
			recordId: id,
		});
		const got = outputOf(await crm.run(get), get.name);
		expect(got).toHaveLength(1);
		expect(got[0].json).toMatchObject({ id, Last_Name: 'Round' });

		const update = crm.node('crmRecord', {
			resource: 'record',
			operation: 'update',
			module: 'Leads',
			recordId: id,
			fieldsMode: 'pairs',
			fieldsUi: fields({ Company: 'Updated Co', Annual_Revenue: '1234.5' }),
		});
		const updated = outputOf(await crm.run(update), update.name);
		expect(updated[0].json).toMatchObject({ id, action: 'update', status: 'success' });
		const afterUpdate = await crm.api('GET', `/crm/v2.1/Leads/${id}`);
		expect(afterUpdate.body.data[0]).toMatchObject({
			Company: 'Updated Co',
			Annual_Revenue: 1234.5,
		});

		const getAll = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { fields: ['Last_Name', 'Email'] },
		});
		const all = outputOf(await crm.run(getAll), getAll.name);
		const total = await crm.api('GET', '/crm/v2.1/Leads?per_page=200');
		expect(all.length).toBeGreaterThan(120);
		expect(all.some((i) => i.json.id === id)).toBe(true);
		expect(Object.keys(all[0].json).sort()).toEqual(['Email', 'Last_Name', 'id']);
		expect(total.body.info.more_records).toBe(all.length > 200);

		const del = crm.node('crmRecord', {
			resource: 'record',
			operation: 'delete',
			module: 'Leads',
			recordId: '={{ $json.id }}',
		});
		const deleted = outputOf(
			await crm.run(
				del,
				created.map((i) => ({ json: i.json })),
			),
			del.name,
		);
		expect(deleted.map((i) => i.json.id)).toEqual(created.map((i) => i.json.id));
		expect((await crm.api('GET', `/crm/v2.1/Leads/${id}`)).status).toBe(204);
	});

	test('get many with a limit pages through the sandbox and stops at the limit', async () => {
		const getAll = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: '={{ $json.module }}',
			returnAll: false,
			limit: 7,
		});
		const out = outputOf(
			await crm.run(getAll, [{ json: { module: 'Contacts' } }, { json: { module: 'Accounts' } }]),
			getAll.name,
		);
		expect(out).toHaveLength(14);
		// each result is paired with the input item that asked for it
		expect(out.slice(0, 7).every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(
			out
				.slice(7)
				.every(
					(i) =>
						(i.pairedItem as { item: number }).item === 1 &&
						typeof i.json.Account_Name === 'string',
				),
		).toBe(true);
		expect(out.slice(0, 7).every((i) => typeof i.json.Last_Name === 'string')).toBe(true);
	});

	test('a per-record error in a 2xx fails only that item; with continueOnFail it is an error item', async () => {
		const before = (await crm.api('GET', '/crm/v2.1/Accounts?per_page=200')).body.data.length;
		const create = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'create',
				module: 'Accounts',
				fieldsMode: 'pairs',
				fieldsUi: fields({ Account_Name: '={{ $json.name }}' }),
			},
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(create, [
				{ json: { name: 'Good Account One' } },
				{ json: { name: '' } },
				{ json: { name: 'Good Account Two' } },
			]),
			create.name,
		);
		expect(out).toHaveLength(3);
		expect(out[0].json).toMatchObject({ status: 'success' });
		expect(out[1].json.error).toContain('MANDATORY_NOT_FOUND');
		expect(out[1].json.details).toMatchObject({
			status: 'error',
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'Account_Name' },
		});
		expect(out[1].pairedItem).toEqual({ item: 1 });
		expect(out[2].json).toMatchObject({ status: 'success' });
		const after = (await crm.api('GET', '/crm/v2.1/Accounts?per_page=200')).body.data.length;
		expect(after).toBe(before + 2);

		// without continueOnFail the node fails, naming the failed item; the good records are written
		const strict = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Accounts',
			fieldsMode: 'pairs',
			fieldsUi: fields({ Account_Name: '={{ $json.name }}' }),
		});
		const run = await crm.run(strict, [
			{ json: { name: 'Good Account Three' } },
			{ json: { name: '' } },
		]);
		const error = errorOf(run, strict.name);
		expect(error?.message).toContain('MANDATORY_NOT_FOUND');
		expect(error?.message).toBe(
			'Item 0 written (1); item 1 failed: Required field Account Name (Account_Name) is missing [MANDATORY_NOT_FOUND]',
		);
		const names = (await crm.api('GET', '/crm/v2.1/Accounts?per_page=200')).body.data.map(
			(r: any) => r.Account_Name,
		);
		expect(names).toContain('Good Account Three');
	});

	test('an expired access token is refreshed and the call succeeds', async () => {
		const oldToken = (crm.helper.store.crmOAuth2Api.oauthTokenData as any).access_token;
		await fetch(`${crm.url}/__sandbox/tokens/expire`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ access_token: oldToken }),
		});
		const get = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'Deals',
			returnAll: false,
			limit: 3,
		});
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(3);
		const newToken = (crm.helper.store.crmOAuth2Api.oauthTokenData as any).access_token;
		expect(newToken).not.toBe(oldToken);
		expect((crm.helper.store.crmOAuth2Api.oauthTokenData as any).api_domain).toBe(crm.url);
		const sawRefresh = (await crm.requests()).some((r) => r.url.startsWith('/oauth/v2/token'));
		expect(sawRefresh).toBe(true);
	});

	test('unknown module surfaces INVALID_MODULE with its code', async () => {
		const get = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'NoSuchModule',
			limit: 1,
		});
		const error = errorOf(await crm.run(get), get.name);
		expect(error?.message).toContain('INVALID_MODULE');
	});
});

describe('CRM Record › scopes', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture({ scope: 'CRM.settings.ALL,CRM.modules.contacts.READ' });
	});
	afterAll(async () => await crm.close());

	test('a token without the module scope gets OAUTH_SCOPE_MISMATCH surfaced with its code', async () => {
		const get = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'Leads',
			limit: 5,
		});
		const error = errorOf(await crm.run(get), get.name);
		expect(error?.message).toContain('OAUTH_SCOPE_MISMATCH');
		expect(error?.description).toContain('scope');
		// the covered module still works with the same credential
		const ok = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'Contacts',
			limit: 2,
		});
		expect(outputOf(await crm.run(ok), ok.name)).toHaveLength(2);
	});
});
