// Which route takes a request when several patterns match it (docs/protocol.md §3.10): reserved first
// segments before `{module}`, literal segments before parameters, `{id}` all digits unless X-EXTERNAL
// is sent. The router ranks routes by their number of literal segments and breaks the remaining ties
// by registration order. Every overlapping pair of patterns in the route table is pinned here by one
// request (GET where the pair has it), read from the route the request log names, so a change of
// rank or of registration order that moves one fails.
import { useContractFixture } from '../harness/contract.ts';
import { api } from '../harness/sandbox.ts';

const sb = useContractFixture({
	scope: 'CRM.modules.ALL,CRM.settings.ALL,CRM.users.ALL,CRM.org.ALL,CRM.bulk.ALL,CRM.coql.READ',
});

const XE = { 'X-EXTERNAL': 'Leads.External_Lead_ID' };

interface Row {
	method: string;
	/** below /crm/v2.1 */
	path: string;
	/** the route that must take it */
	route: string;
	external?: boolean;
}

const rows: Row[] = [
	// §3.10 step 1 before step 4: named actions of a module beat `{id}`, also when X-EXTERNAL lets `{id}` be any text
	{ method: 'GET', path: '/Leads/search', route: 'GET /:module/search' },
	{ method: 'GET', path: '/Leads/search', route: 'GET /:module/search', external: true },
	{ method: 'GET', path: '/Leads/deleted', route: 'GET /:module/deleted', external: true },
	{ method: 'POST', path: '/Leads/upsert', route: 'POST /:module/upsert', external: true },
	// another method falls through to the route that has it
	{ method: 'PUT', path: '/Leads/upsert', route: 'PUT /:module/:id', external: true },
	{
		method: 'GET',
		path: '/Leads/actions/count',
		route: 'GET /:module/actions/count',
		external: true,
	},
	{
		method: 'POST',
		path: '/Leads/actions/mass_update',
		route: 'POST /:module/actions/mass_update',
	},
	{
		method: 'GET',
		path: '/Leads/actions/mass_update',
		route: 'GET /:module/actions/mass_update',
		external: true,
	},
	{ method: 'GET', path: '/Leads/4876876000000611001', route: 'GET /:module/:id' },
	{ method: 'GET', path: '/Leads/EXT-1', route: 'GET /:module/:id', external: true },
	// step 2 before step 3: photo, Attachments, Notes and actions of a record beat a related list
	{ method: 'GET', path: '/Leads/4876876000000611001/photo', route: 'GET /:module/:id/photo' },
	{
		method: 'DELETE',
		path: '/Leads/4876876000000611001/photo',
		route: 'DELETE /:module/:id/photo',
	},
	{
		method: 'GET',
		path: '/Leads/4876876000000611001/Attachments',
		route: 'GET /:module/:recordId/Attachments',
	},
	{
		method: 'GET',
		path: '/Leads/4876876000000611001/Attachments/4876876000000611002',
		route: 'GET /:module/:recordId/Attachments/:id',
	},
	{
		method: 'GET',
		path: '/Leads/4876876000000611001/Notes',
		route: 'GET /:module/:recordId/Notes',
	},
	{
		method: 'GET',
		path: '/Leads/4876876000000611001/Products',
		route: 'GET /:module/:recordId/:relatedList',
	},
	{
		method: 'GET',
		path: '/Leads/4876876000000611001/Products/4876876000000611002',
		route: 'GET /:module/:recordId/:relatedList/:relatedId',
	},
	{
		method: 'GET',
		path: '/Leads/4876876000000611001/actions/blueprint',
		route: 'GET /:module/:id/actions/blueprint',
		external: true,
	},
	{
		method: 'GET',
		path: '/Leads/4876876000000611001/actions/share',
		route: 'GET /:module/:recordId/actions/share',
		external: true,
	},
	{
		method: 'GET',
		path: '/Leads/4876876000000611001/actions/download_fields_attachment',
		route: 'GET /:module/:recordId/actions/download_fields_attachment',
		external: true,
	},
	// literal module routes beat `{module}`
	{ method: 'GET', path: '/Notes', route: 'GET /Notes' },
	{ method: 'GET', path: '/Notes/4876876000000611001', route: 'GET /Notes/:id' },
	{ method: 'GET', path: '/Contacts/roles', route: 'GET /Contacts/roles' },
	{ method: 'GET', path: '/contacts/ROLES', route: 'GET /Contacts/roles', external: true },
	{ method: 'GET', path: '/Leads/roles', route: 'GET /:module/:id', external: true },
	{ method: 'GET', path: '/Contacts/roles/4876876000000611001', route: 'GET /Contacts/roles/:id' },
	{
		method: 'GET',
		path: '/Contacts/roles/photo',
		route: 'GET /Contacts/roles/:id',
		external: true,
	},
	{
		method: 'GET',
		path: '/Contacts/roles/Notes',
		route: 'GET /Contacts/roles/:id',
		external: true,
	},
	{
		method: 'GET',
		path: '/Contacts/roles/Attachments',
		route: 'GET /Contacts/roles/:id',
		external: true,
	},
	{
		method: 'GET',
		path: '/Contacts/roles/Deals',
		route: 'GET /Contacts/roles/:id',
		external: true,
	},
	{
		method: 'GET',
		path: '/Deals/4876876000000611001/Contact_Roles',
		route: 'GET /Deals/:dealId/Contact_Roles',
	},
	{
		method: 'GET',
		path: '/Deals/4876876000000611001/Contact_Roles/4876876000000611002',
		route: 'GET /Deals/:dealId/Contact_Roles/:contactId',
	},
	{
		method: 'POST',
		path: '/Leads/4876876000000611001/actions/convert',
		route: 'POST /Leads/:id/actions/convert',
	},
	// the only overlaps of equal rank: `{module}` actions registered before the literal Notes routes
	{ method: 'GET', path: '/Notes/search', route: 'GET /:module/search', external: true },
	{ method: 'GET', path: '/Notes/deleted', route: 'GET /:module/deleted', external: true },
	// reserved first segments are never a module
	{ method: 'GET', path: '/settings/modules', route: 'GET /settings/modules' },
	{ method: 'GET', path: '/settings/modules/Leads', route: 'GET /settings/modules/:key' },
	{ method: 'GET', path: '/settings/fields', route: 'GET /settings/fields' },
	{ method: 'GET', path: '/users/4876876000000611001', route: 'GET /users/:id' },
	{ method: 'GET', path: '/users/search', route: 'GET /users/:id', external: true },
	{ method: 'GET', path: '/org', route: 'GET /org' },
	{ method: 'GET', path: '/actions/watch', route: 'GET /actions/watch' },
	{ method: 'POST', path: '/coql', route: 'POST /coql' },
	{ method: 'GET', path: '/files', route: 'GET /files' },
];

describe('route precedence (§3.10)', () => {
	it.each(rows.map((row) => ({ external: false, ...row })))(
		'$method $path (X-EXTERNAL: $external) → $route',
		async (row) => {
			const url = `/crm/v2.1${row.path}`;
			const body = row.method === 'GET' || row.method === 'DELETE' ? {} : { body: {} };
			await sb.call(row.method, url, { ...body, headers: row.external ? XE : {} });
			const log = (await api(`${sb.url}/__sandbox/requests`, '')).body.requests as Array<{
				method: string;
				url: string;
				route?: string;
			}>;
			const taken = log.filter((r) => r.method === row.method && r.url === url).at(-1);
			expect(taken?.route).toBe(row.route);
		},
	);

	test('no route: 404 INVALID_URL_PATTERN and no route in the log', async () => {
		const url = '/crm/v2.1/Leads/not-digits';
		const res = await sb.call('GET', url);
		expect(res.status).toBe(404);
		expect(res.body.code).toBe('INVALID_URL_PATTERN');
		const log = (await api(`${sb.url}/__sandbox/requests`, '')).body.requests as Array<{
			url: string;
			route?: string;
			status: number;
		}>;
		expect(log.filter((r) => r.url === url).at(-1)).toMatchObject({ status: 404 });
		expect(log.filter((r) => r.url === url).at(-1)).not.toHaveProperty('route');
	});
});
