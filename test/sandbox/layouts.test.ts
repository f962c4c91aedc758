// Contract tests of the sandbox layouts (docs/protocol.md §5.7, §2.3, §11) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.settings.ALL' });
const { call } = sb;
const ID = /^\d{19}$/;

describe('GetLayouts', () => {
	it('derives the sections and fields of the Standard layout from the module fields', async () => {
		const fields = (await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Leads' } }))
			.body.fields as any[];
		const res = await call('GET', '/crm/v2.1/settings/layouts', { query: { module: 'leads' } });
		expect(res.status).toBe(200);
		expect(res.body.layouts).toHaveLength(1);
		const layout = res.body.layouts[0];
		expect(layout).toMatchObject({ name: 'Standard', visible: true });
		expect(layout.id).toMatch(ID);
		expect(layout.sections.map((s: any) => s.display_label)).toEqual([
			'Lead Information',
			'Address Information',
			'Description Information',
		]);
		const placed = layout.sections.flatMap((s: any) => s.fields);
		// every field but id and Tag is on the layout, with the field ids of GetFields
		expect(placed.map((f: any) => f.api_name).sort()).toEqual(
			fields
				.map((f) => f.api_name)
				.filter((n) => n !== 'id' && n !== 'Tag')
				.sort(),
		);
		for (const f of placed) expect(f.id).toBe(fields.find((x) => x.api_name === f.api_name).id);
		const address = layout.sections.find((s: any) => s.display_label === 'Address Information');
		expect(address.fields.map((f: any) => f.api_name)).toEqual([
			'Street',
			'City',
			'State',
			'Zip_Code',
			'Country',
		]);
		// Leads convert into Contacts, Accounts and Deals layouts
		expect(Object.keys(layout.convert_mapping).sort()).toEqual(['Accounts', 'Contacts', 'Deals']);
		expect(layout.profiles.map((p: any) => p.name)).toEqual(
			expect.arrayContaining(['Administrator', 'Standard']),
		);
	});

	it('Deals has a second layout with fewer fields, seen by administrators only', async () => {
		const res = await call('GET', '/crm/v2/settings/layouts', { query: { module: 'Deals' } });
		expect(res.body.layouts.map((l: any) => l.name)).toEqual(['Standard', 'Partner Deals']);
		const [standard, partner] = res.body.layouts;
		const names = (l: any) => l.sections.flatMap((s: any) => s.fields.map((f: any) => f.api_name));
		expect(names(standard)).toContain('Lead_Source');
		expect(names(partner)).not.toContain('Lead_Source');
		expect(names(partner)).toContain('Stage');
		expect(partner.profiles.map((p: any) => p.name)).toEqual(['Administrator']);
		// v2 field rendering inside layouts
		expect(standard.sections[0].fields[0]).toHaveProperty('section_id');
	});

	it('follows module metadata: a field added to a stored module shows on its layout', async () => {
		const res = await call('GET', '/crm/v2.1/settings/layouts', { query: { module: 'Projects' } });
		const placed = res.body.layouts[0].sections.flatMap((s: any) =>
			s.fields.map((f: any) => f.api_name),
		);
		expect(placed).toContain('Contract_File');
	});

	it('module is required and must exist', async () => {
		const missing = await call('GET', '/crm/v2.1/settings/layouts');
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'module' },
			status: 'error',
		});
		const unknown = await call('GET', '/crm/v2.1/settings/layouts', {
			query: { module: 'Starships' },
		});
		expect(unknown.status).toBe(400);
		expect(unknown.body.code).toBe('INVALID_MODULE');
	});
});

describe('GetLayout', () => {
	it('answers one layout by id, with or without module', async () => {
		const list = (await call('GET', '/crm/v2.1/settings/layouts', { query: { module: 'Deals' } }))
			.body.layouts;
		const byId = await call('GET', `/crm/v2.1/settings/layouts/${list[1].id}`, {
			query: { module: 'Deals' },
		});
		expect(byId.status).toBe(200);
		expect(byId.body).toEqual({ layouts: [list[1]] });
		const bare = await call('GET', `/crm/v2.1/settings/layouts/${list[0].id}`);
		expect(bare.body.layouts[0].name).toBe('Standard');
	});

	it('an unknown id, or a layout of another module, answers 400 INVALID_DATA', async () => {
		const list = (await call('GET', '/crm/v2.1/settings/layouts', { query: { module: 'Deals' } }))
			.body.layouts;
		const unknown = await call('GET', '/crm/v2.1/settings/layouts/4876876000000000042');
		expect(unknown.status).toBe(400);
		expect(unknown.body).toEqual({
			code: 'INVALID_DATA',
			details: { id: '4876876000000000042', resource_path_index: 2 },
			message: 'the id given seems to be invalid',
			status: 'error',
		});
		const other = await call('GET', `/crm/v2/settings/layouts/${list[0].id}`, {
			query: { module: 'Leads' },
		});
		expect(other.status).toBe(400);
		expect(other.body.details).toEqual({ id: list[0].id });
	});

	it('needs a layouts scope', async () => {
		const narrow = (await grantToken(sb.url, { scope: 'CRM.settings.fields.READ' })).access_token;
		const res = await api(`${sb.url}/crm/v2.1/settings/layouts?module=Leads`, narrow);
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
		const layoutsOnly = (await grantToken(sb.url, { scope: 'CRM.settings.layouts.READ' }))
			.access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/layouts?module=Leads`, layoutsOnly)).status,
		).toBe(200);
	});
});
