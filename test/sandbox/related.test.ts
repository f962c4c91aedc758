// Contract tests of the related-records routes (docs/protocol.md §5.2, §3.9, §3.10) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL,CRM.settings.ALL' });
const { call } = sb;
async function create(module: string, data: Record<string, unknown>[]): Promise<string[]> {
	const res = await call('POST', `/crm/v2.1/${module}`, { body: { data } });
	expect(res.status).toBe(201);
	return res.body.data.map((r: any) => r.details.id);
}

/** the contact's Account_Name lookup as GetRecord answers it */
const accountOf = async (contact: string) =>
	(await call('GET', `/crm/v2.1/Contacts/${contact}`)).body.data[0].Account_Name;

let deal: string;
let products: string[];

beforeAll(async () => {
	[deal] = await create('Deals', [
		{ Deal_Name: 'Contract Deal', Stage: 'Qualification', Closing_Date: '2030-01-01' },
	]);
	products = await create('Products', [
		{ Product_Name: 'P one', Product_Code: 'P-1' },
		{ Product_Name: 'P two', Product_Code: 'P-2' },
	]);
});

describe('UpdateRelatedRecords / GetRelatedRecords / DelinkRecords', () => {
	it('links, lists with info, pages, delinks with per-item results in input order', async () => {
		expect((await call('GET', `/crm/v2.1/Deals/${deal}/Products`)).status).toBe(204);
		const link = await call('PUT', `/crm/v2.1/Deals/${deal}/Products`, {
			body: { data: products.map((id) => ({ id })) },
		});
		expect(link.status).toBe(200);
		expect(link.body.data).toEqual(
			products.map((id) => ({
				code: 'SUCCESS',
				details: { id },
				message: 'relation added',
				status: 'success',
			})),
		);

		const page1 = await call('GET', `/crm/v2.1/Deals/${deal}/Products`, { query: { per_page: 1 } });
		expect(page1.body.info).toEqual({ per_page: 1, count: 1, page: 1, more_records: true });
		expect(page1.body.data[0].id).toBe(products[0]);
		const page2 = await call('GET', `/crm/v2.1/Deals/${deal}/Products`, {
			query: { per_page: 1, page: 2 },
		});
		expect(page2.body.info.more_records).toBe(false);

		const mixed = await call('DELETE', `/crm/v2.1/Deals/${deal}/Products`, {
			query: { ids: `${products[0]},4876876999999999999` },
		});
		expect(mixed.status).toBe(200);
		expect(mixed.body.data.map((r: any) => r.status)).toEqual(['success', 'error']);
		expect(mixed.body.data[0].message).toBe('relation removed');
		expect(mixed.body.data[1]).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876999999999999' },
		});

		const allFailed = await call('DELETE', `/crm/v2.1/Deals/${deal}/Products/${products[0]}`);
		expect(allFailed.status).toBe(400);
		expect(allFailed.body.data[0].code).toBe('INVALID_DATA');
	});

	it('singular forms: UpdateRelatedRecord, GetRelatedRecord, DelinkRecord', async () => {
		const put = await call('PUT', `/crm/v2.1/Deals/${deal}/Products/${products[0]}`, {
			body: { data: [{}] },
		});
		expect(put.body.data[0]).toMatchObject({ status: 'success', details: { id: products[0] } });
		const get = await call('GET', `/crm/v2.1/Deals/${deal}/Products/${products[0]}`);
		expect(get.status).toBe(200);
		expect(get.body.data[0].id).toBe(products[0]);
		const del = await call('DELETE', `/crm/v2.1/Deals/${deal}/Products/${products[0]}`);
		expect(del.body.data[0].message).toBe('relation removed');
		expect((await call('GET', `/crm/v2.1/Deals/${deal}/Products/${products[0]}`)).status).toBe(204);
	});

	it('bounds and parameters: 101 items, empty list, missing ids, unknown list, unknown parent', async () => {
		const tooMany = await call('PUT', `/crm/v2.1/Deals/${deal}/Products`, {
			body: { data: Array.from({ length: 101 }, () => ({ id: products[0] })) },
		});
		expect(tooMany.status).toBe(400);
		expect(tooMany.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 100, api_name: 'data' },
		});
		expect(
			(await call('PUT', `/crm/v2.1/Deals/${deal}/Products`, { body: { data: [] } })).body.code,
		).toBe('MANDATORY_NOT_FOUND');
		const noIds = await call('DELETE', `/crm/v2.1/Deals/${deal}/Products`);
		expect(noIds.body).toMatchObject({ code: 'REQUIRED_PARAM_MISSING', details: { param: 'ids' } });
		const badList = await call('GET', `/crm/v2.1/Deals/${deal}/Nonsense`);
		expect(badList.status).toBe(400);
		expect(badList.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { param_name: 'related_list' },
		});
		expect((await call('GET', `/crm/v2/Deals/${deal}/Nonsense`)).body.details).toEqual({
			param: 'related_list',
		});
		const noParent = await call('PUT', `/crm/v2.1/Deals/4876876999999999999/Products`, {
			body: { data: [{ id: products[0] }] },
		});
		expect(noParent.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876999999999999' },
		});
		expect((await call('GET', `/crm/v2.1/Deals/4876876999999999999/Products`)).status).toBe(204);
		const missingId = await call('PUT', `/crm/v2.1/Deals/${deal}/Products`, {
			body: { data: [{ Quantity: 2 }] },
		});
		expect(missingId.body.data[0]).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'id', json_path: '$.data[0].id' },
		});
		// attachments have their own routes: PUT on them is a wrong method
		expect(
			(
				await call('PUT', `/crm/v2.1/Deals/${deal}/Attachments`, {
					body: { data: [{ id: products[0] }] },
				})
			).body.code,
		).toBe('INVALID_REQUEST_METHOD');
	});

	it('If-Modified-Since: 304 when no link changed since', async () => {
		await call('PUT', `/crm/v2.1/Deals/${deal}/Products`, {
			body: { data: [{ id: products[1] }] },
		});
		const future = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
		expect(
			(
				await call('GET', `/crm/v2.1/Deals/${deal}/Products`, {
					headers: { 'If-Modified-Since': future },
				})
			).status,
		).toBe(304);
		expect(
			(
				await call('GET', `/crm/v2.1/Deals/${deal}/Products`, {
					headers: { 'If-Modified-Since': '2000-01-01T00:00:00+00:00' },
				})
			).status,
		).toBe(200);
	});

	it('lookup-defined lists set and clear the lookup, with a related change event', async () => {
		const [account] = await create('Accounts', [{ Account_Name: 'Lookup Parent' }]);
		const [contact] = await create('Contacts', [{ Last_Name: 'Lookup Child' }]);
		// the change events the service published (test hook GET /__sandbox/changes, docs/protocol.md §14)
		await api(`${sb.url}/__sandbox/changes`, undefined, { method: 'DELETE' });
		await call('PUT', `/crm/v2.1/Accounts/${account}/Contacts`, {
			body: { data: [{ id: contact }] },
		});
		expect((await api(`${sb.url}/__sandbox/changes`)).body.changes).toEqual([
			{ module: 'Contacts', operation: 'update', related: true, ids: [contact] },
		]);
		expect(await accountOf(contact)).toMatchObject({ id: account });
		const list = await call('GET', `/crm/v2.1/Accounts/${account}/Contacts`);
		expect(list.body.data.map((r: any) => r.id)).toEqual([contact]);
		await call('DELETE', `/crm/v2.1/Accounts/${account}/Contacts/${contact}`);
		expect(await accountOf(contact)).toBeNull();
	});

	it('relation fields are kept on links of lists without lookup (Campaigns → Leads)', async () => {
		const [campaign] = await create('Campaigns', [{ Campaign_Name: 'Spring Campaign' }]);
		const [lead] = await create('Leads', [{ Last_Name: 'Campaign Member' }]);
		await call('PUT', `/crm/v2.1/Campaigns/${campaign}/Leads`, {
			body: { data: [{ id: lead, Member_Status: 'Responded' }] },
		});
		const list = await call('GET', `/crm/v2.1/Campaigns/${campaign}/Leads`);
		expect(list.body.data[0]).toMatchObject({
			id: lead,
			Last_Name: 'Campaign Member',
			Member_Status: 'Responded',
		});
	});
});

describe('external-ID forms (X-EXTERNAL)', () => {
	it('addresses parent and related records by external values, and echoes the external key', async () => {
		const [account] = await create('Accounts', [
			{ Account_Name: 'Ext Parent', External_Account_ID: 'EXT-A' },
		]);
		const [contact] = await create('Contacts', [
			{ Last_Name: 'Ext Child', External_Contact_ID: 'EXT-C' },
		]);
		const both = { 'X-EXTERNAL': 'Accounts.External_Account_ID,Contacts.External_Contact_ID' };
		const put = await call('PUT', '/crm/v2.1/Accounts/EXT-A/Contacts', {
			headers: both,
			body: { data: [{ External_Contact_ID: 'EXT-C' }] },
		});
		expect(put.body.data[0]).toEqual({
			code: 'SUCCESS',
			details: { id: contact, External_Contact_ID: 'EXT-C' },
			message: 'relation added',
			status: 'success',
		});
		const list = await call('GET', '/crm/v2.1/Accounts/EXT-A/Contacts', {
			headers: { 'X-EXTERNAL': 'Accounts.External_Account_ID' },
		});
		expect(list.body.data.map((r: any) => r.id)).toEqual([contact]);
		expect(
			(await call('GET', '/crm/v2.1/Accounts/EXT-A/Contacts/EXT-C', { headers: both })).body.data[0]
				.id,
		).toBe(contact);
		const del = await call('DELETE', '/crm/v2.1/Accounts/EXT-A/Contacts', {
			headers: both,
			query: { ids: 'EXT-C' },
		});
		expect(del.body.data[0]).toMatchObject({
			message: 'relation removed',
			details: { id: contact },
		});
		expect(await accountOf(contact)).toBeNull();
		void account;
		const bad = await call('GET', '/crm/v2.1/Accounts/EXT-A/Contacts', {
			headers: { 'X-EXTERNAL': 'Accounts.Account_Name' },
		});
		expect(bad.body).toMatchObject({ code: 'INVALID_DATA', details: { api_name: 'Account_Name' } });
	});
});

describe('scopes and cascade', () => {
	it('needs the module scope of the parent (§2.3)', async () => {
		const narrow = (await grantToken(sb.url, { scope: 'CRM.modules.leads.READ' })).access_token;
		const res = await api(`${sb.url}/crm/v2.1/Deals/${deal}/Products`, narrow);
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});

	it('deleting either end removes the relation', async () => {
		const [doomed] = await create('Products', [{ Product_Name: 'Doomed product' }]);
		await call('PUT', `/crm/v2.1/Deals/${deal}/Products`, { body: { data: [{ id: doomed }] } });
		const linked = async () => {
			const res = await call('GET', `/crm/v2.1/Deals/${deal}/Products`);
			return res.status === 204 ? [] : res.body.data.map((r: any) => r.id);
		};
		expect(await linked()).toContain(doomed);
		await call('DELETE', `/crm/v2.1/Products/${doomed}`);
		expect(await linked()).not.toContain(doomed);
	});
});

describe('standard related lists of the service (docs/protocol.md §3.10)', () => {
	it.each([
		[
			'Leads',
			{ Last_Name: 'RL lead' },
			'Products',
			{ Product_Name: 'RL product for a lead' },
			'Leads',
		],
		[
			'Leads',
			{ Last_Name: 'RL lead 2' },
			'Campaigns',
			{ Campaign_Name: 'RL campaign for a lead' },
			'Leads',
		],
		[
			'Contacts',
			{ Last_Name: 'RL contact' },
			'Products',
			{ Product_Name: 'RL product for a contact' },
			'Contacts',
		],
		[
			'Contacts',
			{ Last_Name: 'RL contact 2' },
			'Campaigns',
			{ Campaign_Name: 'RL campaign for a contact' },
			'Contacts',
		],
		[
			'Accounts',
			{ Account_Name: 'RL account' },
			'Products',
			{ Product_Name: 'RL product for an account' },
			'Accounts',
		],
	])(
		'%s → %s links through UpdateRelatedRecords and lists on both sides',
		async (module, data, list, relatedData, backList) => {
			const [parent] = await create(module, [data]);
			const [related] = await create(list, [relatedData]);
			const link = await call('PUT', `/crm/v2.1/${module}/${parent}/${list}`, {
				body: { data: [{ id: related }] },
			});
			expect(link.status).toBe(200);
			expect(link.body.data).toEqual([
				{ code: 'SUCCESS', details: { id: related }, message: 'relation added', status: 'success' },
			]);
			const listed = await call('GET', `/crm/v2.1/${module}/${parent}/${list}`);
			expect(listed.status).toBe(200);
			expect(listed.body.data.map((r: any) => r.id)).toEqual([related]);
			const back = await call('GET', `/crm/v2.1/${list}/${related}/${backList}`);
			expect(back.body.data.map((r: any) => r.id)).toEqual([parent]);
			const delink = await call('DELETE', `/crm/v2.1/${module}/${parent}/${list}/${related}`);
			expect(delink.body.data[0].message).toBe('relation removed');
			expect((await call('GET', `/crm/v2.1/${module}/${parent}/${list}`)).status).toBe(204);
		},
	);

	it('Products lists its Leads, Contacts, Accounts, Deals and Price_Books', async () => {
		const [product] = await create('Products', [{ Product_Name: 'RL hub product' }]);
		const linked: Record<string, string> = {
			Leads: (await create('Leads', [{ Last_Name: 'Hub lead' }]))[0],
			Contacts: (await create('Contacts', [{ Last_Name: 'Hub contact' }]))[0],
			Accounts: (await create('Accounts', [{ Account_Name: 'Hub account' }]))[0],
			Deals: (await create('Deals', [{ Deal_Name: 'Hub deal', Stage: 'Qualification' }]))[0],
			Price_Books: (await create('Price_Books', [{ Price_Book_Name: 'Hub book' }]))[0],
		};
		for (const [list, id] of Object.entries(linked)) {
			const res = await call('PUT', `/crm/v2.1/Products/${product}/${list}`, {
				body: { data: [{ id }] },
			});
			expect(res.body.data[0]).toMatchObject({ code: 'SUCCESS', details: { id } });
			expect(
				(await call('GET', `/crm/v2.1/Products/${product}/${list}`)).body.data.map(
					(r: any) => r.id,
				),
			).toEqual([id]);
		}
		expect(
			(await call('GET', `/crm/v2.1/Leads/${linked.Leads}/Products`)).body.data.map(
				(r: any) => r.id,
			),
		).toEqual([product]);
	});
});
