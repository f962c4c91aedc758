// Contract tests of the sandbox custom views (docs/protocol.md §5.7, §3.6, §3.12) over HTTP.
import { customViewMatches } from '../../sandbox/groups/custom-views.ts';
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.settings.ALL,CRM.modules.ALL' });
const { call } = sb;
const ID = /^\d{19}$/;
const MARIA = '4876876000000225021';
const JAMES = '4876876000000225029';

/** A view with its criteria, as GetCustomView answers it. */
async function viewOf(id: string): Promise<any> {
	const res = await call('GET', `/crm/v2.1/settings/custom_views/${id}`);
	expect(res.status).toBe(200);
	return res.body.custom_views[0];
}

/** The fields a view's criteria read (§3.12: `field` as `{api_name, id}`, or an `api_name`). */
function criteriaFields(criteria: any): string[] {
	if (!criteria) return [];
	if (Array.isArray(criteria.group)) return criteria.group.flatMap(criteriaFields);
	return [
		typeof criteria.field === 'string'
			? criteria.field
			: (criteria.field?.api_name ?? criteria.api_name),
	];
}

/** Every record of a module with `fields`, as GetRecords lists them (every page; converted leads left out). */
async function recordsOf(module: string, fields: string[]): Promise<any[]> {
	const records: any[] = [];
	for (let page = 1; ; page++) {
		const res = await call('GET', `/crm/v2.1/${module}`, {
			query: { fields: [...new Set(['Created_Time', ...fields])].join(','), per_page: 200, page },
		});
		if (res.status === 204) return records;
		expect(res.status).toBe(200);
		records.push(...res.body.data);
		if (!res.body.info.more_records) return records;
	}
}

async function tokenFor(userId: string): Promise<string> {
	const res = await api(`${sb.url}/__sandbox/tokens`, undefined, {
		method: 'POST',
		body: { scope: 'CRM.settings.ALL', user_id: userId },
	});
	expect(res.status).toBe(201);
	return res.body.access_token;
}

describe('GetCustomViews', () => {
	it('lists the views of a module, default first, with the custom-view info', async () => {
		const res = await call('GET', '/crm/v2.1/settings/custom_views', {
			query: { module: 'Deals' },
		});
		expect(res.status).toBe(200);
		const views = res.body.custom_views;
		expect(views.map((v: any) => v.name)).toEqual([
			'All Deals',
			'My Deals',
			'Open Deals',
			'Closing This Quarter',
			'Enterprise Pipeline',
			'Won Deals',
			"Maria's Big Deals",
		]);
		expect(views[0]).toMatchObject({
			default: true,
			system_defined: true,
			system_name: 'ALLVIEWS',
			category: 'public_views',
			module: { api_name: 'Deals' },
		});
		expect(views[6]).toMatchObject({
			category: 'other_users_views',
			access_type: 'only_to_me',
			created_by: { id: MARIA, name: 'Maria Lopez' },
		});
		for (const v of views) expect(v.id).toMatch(ID);
		// lists are summaries; criteria come with GetCustomView
		expect(views[2]).not.toHaveProperty('criteria');
		expect(res.body.info).toEqual({
			per_page: 200,
			count: 7,
			page: 1,
			more_records: false,
			default: views[0].id,
			translation: {
				public_views: 'Public Views',
				other_users_views: "Other Users' Views",
				shared_with_me: 'Shared With Me',
				created_by_me: 'Created By Me',
			},
		});
	});

	it('pages with page and per_page', async () => {
		const all = (
			await call('GET', '/crm/v2.1/settings/custom_views', { query: { module: 'Deals' } })
		).body.custom_views.map((v: any) => v.id);
		const seen: string[] = [];
		for (let page = 1; page <= 3; page++) {
			const res = await call('GET', '/crm/v2/settings/custom_views', {
				query: { module: 'Deals', page, per_page: 3 },
			});
			expect(res.status).toBe(200);
			expect(res.body.info).toMatchObject({
				page,
				per_page: 3,
				more_records: page < 3,
				default: all[0],
			});
			seen.push(...res.body.custom_views.map((v: any) => v.id));
		}
		expect(seen).toEqual(all);
		expect(
			(
				await call('GET', '/crm/v2.1/settings/custom_views', {
					query: { module: 'Deals', page: 4, per_page: 3 },
				})
			).status,
		).toBe(204);
		const bad = await call('GET', '/crm/v2.1/settings/custom_views', {
			query: { module: 'Deals', per_page: 201 },
		});
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: 'INVALID_DATA', details: { param_name: 'per_page' } });
	});

	it('categories follow the caller: private views are hidden from other non-admins', async () => {
		const james = await tokenFor(JAMES);
		const asJames = await api(`${sb.url}/crm/v2.1/settings/custom_views`, james, {
			query: { module: 'Deals' },
		});
		expect(asJames.body.custom_views.map((v: any) => v.name)).not.toContain("Maria's Big Deals");
		const maria = await tokenFor(MARIA);
		const asMaria = await api(`${sb.url}/crm/v2.1/settings/custom_views`, maria, {
			query: { module: 'Deals' },
		});
		expect(
			asMaria.body.custom_views.find((v: any) => v.name === "Maria's Big Deals").category,
		).toBe('created_by_me');
		const accounts = await call('GET', '/crm/v2.1/settings/custom_views', {
			query: { module: 'Accounts' },
		});
		expect(accounts.body.custom_views.find((v: any) => v.name === 'Key Accounts')).toMatchObject({
			category: 'shared_with_me',
			access_type: 'shared',
			shared_type: 'users',
		});
		const keyAccountsForJames = (
			await api(`${sb.url}/crm/v2.1/settings/custom_views`, james, {
				query: { module: 'Accounts' },
			})
		).body.custom_views;
		expect(keyAccountsForJames.find((v: any) => v.name === 'Key Accounts').category).toBe(
			'created_by_me',
		);
	});

	it('every module has its All and My views; module is required', async () => {
		for (const module of ['Leads', 'Contacts', 'Projects', 'Notes']) {
			const res = await call('GET', '/crm/v2.1/settings/custom_views', { query: { module } });
			expect(res.status).toBe(200);
			expect(res.body.custom_views.slice(0, 2).map((v: any) => v.system_name)).toEqual([
				'ALLVIEWS',
				'MYVIEWS',
			]);
		}
		expect((await call('GET', '/crm/v2.1/settings/custom_views')).body.code).toBe(
			'REQUIRED_PARAM_MISSING',
		);
		expect(
			(await call('GET', '/crm/v2.1/settings/custom_views', { query: { module: 'Nope' } })).body
				.code,
		).toBe('INVALID_MODULE');
	});
});

describe('GetCustomView', () => {
	it('answers the view with its JSON criteria (field as {api_name, id}) and columns', async () => {
		const views = (
			await call('GET', '/crm/v2.1/settings/custom_views', { query: { module: 'Leads' } })
		).body.custom_views;
		const web = views.find((v: any) => v.name === 'Web Leads');
		const res = await call('GET', `/crm/v2.1/settings/custom_views/${web.id}`, {
			query: { module: 'Leads' },
		});
		expect(res.status).toBe(200);
		const view = res.body.custom_views[0];
		expect(view).toMatchObject({
			id: web.id,
			name: 'Web Leads',
			favorite: 1,
			category: 'created_by_me',
			access_type: 'public',
		});
		expect(view.criteria).toEqual({
			field: { api_name: 'Lead_Source', id: expect.stringMatching(ID) },
			comparator: 'in',
			value: ['Web', 'Web Download', 'Web Research'],
		});
		const fields = (await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Leads' } }))
			.body.fields;
		expect(view.criteria.field.id).toBe(fields.find((f: any) => f.api_name === 'Lead_Source').id);
		expect(view.fields[0]).toEqual({
			api_name: 'Last_Name',
			id: fields.find((f: any) => f.api_name === 'Last_Name').id,
		});
		expect(res.body.info).toMatchObject({ default: views[0].id, translation: expect.any(Object) });
	});

	it('a view selects the records its criteria match (customViewMatches, shared with GetRecords cvid)', async () => {
		const views = (
			await call('GET', '/crm/v2.1/settings/custom_views', { query: { module: 'Deals' } })
		).body.custom_views;
		const open = await viewOf(views.find((v: any) => v.name === 'Open Deals').id);
		const quarter = await viewOf(views.find((v: any) => v.name === 'Closing This Quarter').id);
		const all = await viewOf(views[0].id);
		const deals = await recordsOf('Deals', [
			'Stage',
			'Closing_Date',
			...[open, quarter, all].flatMap((v) => criteriaFields(v.criteria)),
		]);
		const openDeals = deals.filter((d) => customViewMatches(open, d));
		expect(openDeals.length).toBeGreaterThan(0);
		expect(openDeals.length).toBeLessThan(deals.length);
		expect(openDeals.every((d) => !String(d.Stage).startsWith('Closed'))).toBe(true);
		for (const d of deals.filter((x) => customViewMatches(quarter, x))) {
			const closing = String(d.Closing_Date);
			expect(closing >= '2025-01-01' && closing <= '2025-03-31').toBe(true);
		}
		expect(deals.every((d) => customViewMatches(all, d))).toBe(true);
	});

	it('every seeded view selects records through GetRecords cvid, as customViewMatches does', async () => {
		for (const module of ['Leads', 'Contacts', 'Accounts', 'Deals', 'Cases', 'Tasks', 'Projects']) {
			const views = (await call('GET', '/crm/v2.1/settings/custom_views', { query: { module } }))
				.body.custom_views;
			for (const listed of views) {
				const v = await viewOf(listed.id);
				const records = await recordsOf(module, criteriaFields(v.criteria));
				const res = await call('GET', `/crm/v2.1/${module}`, {
					query: { cvid: v.id, per_page: 200 },
				});
				expect([200, 204]).toContain(res.status);
				const ids = res.status === 204 ? [] : res.body.data.map((r: any) => r.id);
				const expected = records.filter((r) => customViewMatches(v, r)).map((r) => r.id);
				expect({ view: v.name, ids: [...ids].sort() }).toEqual({
					view: v.name,
					ids: expected.slice(0, 200).sort(),
				});
			}
		}
	});

	it('unknown ids, views of another module and hidden views answer 400 INVALID_DATA', async () => {
		const deals = (
			await call('GET', '/crm/v2.1/settings/custom_views', { query: { module: 'Deals' } })
		).body.custom_views;
		const unknown = await call('GET', '/crm/v2.1/settings/custom_views/4876876000000000042');
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876000000000042' },
			message: 'the id given seems to be invalid',
		});
		const otherModule = await call('GET', `/crm/v2.1/settings/custom_views/${deals[0].id}`, {
			query: { module: 'Leads' },
		});
		expect(otherModule.status).toBe(400);
		const privateView = deals.find((v: any) => v.name === "Maria's Big Deals");
		const james = await tokenFor(JAMES);
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/custom_views/${privateView.id}`, james)).status,
		).toBe(400);
	});

	it('needs a custom-views scope', async () => {
		const narrow = (await grantToken(sb.url, { scope: 'CRM.settings.fields.ALL' })).access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/custom_views?module=Leads`, narrow)).body.code,
		).toBe('OAUTH_SCOPE_MISMATCH');
		const cv = (await grantToken(sb.url, { scope: 'CRM.settings.custom_views.READ' })).access_token;
		expect((await api(`${sb.url}/crm/v2.1/settings/custom_views?module=Leads`, cv)).status).toBe(
			200,
		);
	});
});
