// Contract tests of the sandbox related lists (docs/protocol.md §5.7, §2.3) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.settings.ALL' });
const { call } = sb;
const ID = /^\d{19}$/;

describe('GetRelatedLists / GetRelatedList', () => {
	it('lists the related lists of a module from its metadata', async () => {
		const res = await call('GET', '/crm/v2.1/settings/related_lists', {
			query: { module: 'Accounts' },
		});
		expect(res.status).toBe(200);
		const lists = res.body.related_lists;
		expect(lists.map((l: any) => l.api_name)).toEqual([
			'Contacts',
			'Deals',
			'Products',
			'Quotes',
			'Sales_Orders',
			'Invoices',
			'Cases',
			'Tasks',
			'Projects',
			'Notes',
			'Attachments',
		]);
		expect(lists[7]).toMatchObject({
			display_label: 'Open Tasks',
			module: 'Tasks',
			sequence_number: '8',
			href: 'Accounts/{ENTITYID}/Tasks',
		});
		for (const l of lists) expect(l.id).toMatch(ID);
		expect(new Set(lists.map((l: any) => l.id)).size).toBe(lists.length);
	});

	it.each([
		['Leads', ['Notes', 'Attachments', 'Products', 'Campaigns']],
		['Contacts', ['Notes', 'Attachments', 'Deals', 'Products', 'Campaigns']],
		['Accounts', ['Notes', 'Attachments', 'Contacts', 'Deals', 'Products']],
		['Products', ['Leads', 'Contacts', 'Accounts', 'Deals', 'Price_Books']],
	])(
		'%s has the standard related lists of the service (docs/protocol.md §3.10)',
		async (module, expected) => {
			const lists = (await call('GET', '/crm/v2.1/settings/related_lists', { query: { module } }))
				.body.related_lists;
			for (const name of expected) {
				expect(lists).toContainEqual(
					expect.objectContaining({
						api_name: name,
						module: name,
						href: `${module}/{ENTITYID}/${name}`,
					}),
				);
			}
		},
	);

	it('Deals has Products, Contact Roles (contacts), Notes and Attachments', async () => {
		const lists = (
			await call('GET', '/crm/v2.1/settings/related_lists', { query: { module: 'Deals' } })
		).body.related_lists;
		expect(lists).toContainEqual(
			expect.objectContaining({
				api_name: 'Contact_Roles',
				display_label: 'Contact Roles',
				module: 'Contacts',
			}),
		);
		for (const name of ['Products', 'Notes', 'Attachments'])
			expect(lists).toContainEqual(expect.objectContaining({ api_name: name, module: name }));
	});

	it('a module without related lists answers 204', async () => {
		const res = await call('GET', '/crm/v2.1/settings/related_lists', {
			query: { module: 'Notes' },
		});
		expect(res.status).toBe(204);
	});

	it('answers one related list by id; unknown ids answer 204', async () => {
		const lists = (
			await call('GET', '/crm/v2/settings/related_lists', { query: { module: 'Deals' } })
		).body.related_lists;
		const one = await call('GET', `/crm/v2/settings/related_lists/${lists[1].id}`, {
			query: { module: 'deals' },
		});
		expect(one.status).toBe(200);
		expect(one.body).toEqual({ related_lists: [lists[1]] });
		expect(
			(await call('GET', `/crm/v2.1/settings/related_lists/${lists[1].id}`)).body.related_lists[0]
				.api_name,
		).toBe('Products');
		expect(
			(
				await call('GET', '/crm/v2.1/settings/related_lists/4876876000000000042', {
					query: { module: 'Deals' },
				})
			).status,
		).toBe(204);
	});

	it('module is required; unknown modules answer INVALID_MODULE; the scope is checked', async () => {
		expect((await call('GET', '/crm/v2.1/settings/related_lists')).body.code).toBe(
			'REQUIRED_PARAM_MISSING',
		);
		expect(
			(await call('GET', '/crm/v2.1/settings/related_lists', { query: { module: 'X' } })).body.code,
		).toBe('INVALID_MODULE');
		const narrow = (await grantToken(sb.url, { scope: 'CRM.settings.layouts.READ' })).access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/related_lists?module=Leads`, narrow)).status,
		).toBe(401);
	});
});
