// Contract tests of the sandbox module and field metadata (docs/protocol.md §5.7, §3.7, §11) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.settings.ALL,CRM.modules.ALL' });
const { call } = sb;

const STANDARD_MODULES = [
	'Leads',
	'Contacts',
	'Accounts',
	'Deals',
	'Tasks',
	'Events',
	'Calls',
	'Products',
	'Vendors',
	'Price_Books',
	'Quotes',
	'Sales_Orders',
	'Purchase_Orders',
	'Invoices',
	'Campaigns',
	'Cases',
	'Solutions',
	'Notes',
];
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const ID = /^\d{19}$/;

async function advanceClock(ms: number): Promise<void> {
	const res = await api(`${sb.url}/__sandbox/clock`, undefined, {
		method: 'POST',
		body: { advance_ms: ms },
	});
	expect(res.status).toBe(200);
}

async function getModules(v = 'v2.1'): Promise<any[]> {
	const res = await call('GET', `/crm/${v}/settings/modules`);
	expect(res.status).toBe(200);
	return res.body.modules;
}

describe('GetModules', () => {
	it('lists the 18 standard modules and the custom Projects module', async () => {
		const modules = await getModules();
		const names = modules.map((m) => m.api_name);
		expect(names).toHaveLength(19);
		expect([...names].sort()).toEqual([...STANDARD_MODULES, 'Projects'].sort());
		for (const m of modules) {
			expect(m.id).toMatch(ID);
			expect(m.modified_time).toMatch(DATETIME);
			expect(m.generated_type).toBe(m.api_name === 'Projects' ? 'custom' : 'default');
			expect(typeof m.singular_label).toBe('string');
			expect(typeof m.plural_label).toBe('string');
			expect(typeof m.api_supported).toBe('boolean');
		}
		expect(new Set(modules.map((m) => m.id)).size).toBe(19);
		const leads = modules.find((m) => m.api_name === 'Leads');
		expect(leads).toEqual(
			expect.objectContaining({
				module_name: 'Leads',
				singular_label: 'Lead',
				plural_label: 'Leads',
				convertable: true,
				creatable: true,
			}),
		);
	});

	it('v2.1 adds visible and isBlueprintSupported; v2 does not', async () => {
		const v21 = await getModules('v2.1');
		const v2 = await getModules('v2');
		expect(v2.map((m) => m.api_name)).toEqual(v21.map((m) => m.api_name));
		expect(v21[0]).toHaveProperty('visible');
		expect(v21[0]).toHaveProperty('isBlueprintSupported');
		expect(v2[0]).not.toHaveProperty('visible');
		expect(v2[0]).not.toHaveProperty('isBlueprintSupported');
	});

	it('If-Modified-Since: 304 when no module changed, the list after a change', async () => {
		const modules = await getModules();
		const latest = modules
			.map((m) => m.modified_time)
			.sort()
			.pop()!;
		const same = await call('GET', '/crm/v2.1/settings/modules', {
			headers: { 'If-Modified-Since': latest },
		});
		expect(same.status).toBe(304);
		expect(same.body).toBeUndefined();
		expect(
			(
				await call('GET', '/crm/v2/settings/modules', {
					headers: { 'If-Modified-Since': latest.replace('+00:00', 'Z') },
				})
			).status,
		).toBe(304);
		const earlier = new Date(Date.parse(latest) - 3600_000)
			.toISOString()
			.replace(/\.\d{3}Z$/, '+00:00');
		const older = await call('GET', '/crm/v2.1/settings/modules', {
			headers: { 'If-Modified-Since': earlier },
		});
		expect(older.status).toBe(200);
		expect(older.body.modules.length).toBeGreaterThan(0);

		await advanceClock(2000);
		const update = await call('PUT', '/crm/v2.1/settings/modules/Vendors', {
			body: { modules: [{ singular_label: 'Supplier' }] },
		});
		expect(update.status).toBe(200);
		const changed = await call('GET', '/crm/v2.1/settings/modules', {
			headers: { 'If-Modified-Since': latest },
		});
		expect(changed.status).toBe(200);
		const vendors = changed.body.modules.find((m: any) => m.api_name === 'Vendors');
		expect(vendors.singular_label).toBe('Supplier');
		expect(Date.parse(vendors.modified_time)).toBeGreaterThan(Date.parse(latest));
	});
});

describe('GetModule', () => {
	it('answers one module with its fields by API name', async () => {
		const res = await call('GET', '/crm/v2.1/settings/modules/Leads');
		expect(res.status).toBe(200);
		expect(res.body.modules).toHaveLength(1);
		const module = res.body.modules[0];
		expect(module.api_name).toBe('Leads');
		expect(module.generated_type).toBe('default');
		expect(Array.isArray(module.fields)).toBe(true);
		expect(module.fields.map((f: any) => f.api_name)).toEqual(
			expect.arrayContaining(['Last_Name', 'Email', 'External_Lead_ID']),
		);
	});

	it('answers the same module by id and by lower-case name', async () => {
		const byName = await call('GET', '/crm/v2.1/settings/modules/Contacts');
		const id = byName.body.modules[0].id;
		const byId = await call('GET', `/crm/v2.1/settings/modules/${id}`);
		expect(byId.status).toBe(200);
		expect(byId.body.modules[0]).toEqual(byName.body.modules[0]);
		const lower = await call('GET', '/crm/v2/settings/modules/contacts');
		expect(lower.status).toBe(200);
		expect(lower.body.modules[0].api_name).toBe('Contacts');
		expect(lower.body.modules[0].id).toBe(id);
	});

	it('serves the custom module', async () => {
		const res = await call('GET', '/crm/v2.1/settings/modules/projects');
		expect(res.status).toBe(200);
		expect(res.body.modules[0]).toEqual(
			expect.objectContaining({ api_name: 'Projects', generated_type: 'custom' }),
		);
		expect(
			res.body.modules[0].fields.every(
				(f: any) =>
					f.custom_field === true ||
					[
						'Owner',
						'Created_By',
						'Modified_By',
						'Created_Time',
						'Modified_Time',
						'Tag',
						'Description',
					].includes(f.api_name) ||
					f.read_only,
			),
		).toBe(true);
	});

	it('an unknown module answers 400 INVALID_MODULE', async () => {
		const v21 = await call('GET', '/crm/v2.1/settings/modules/Spaceships');
		expect(v21.status).toBe(400);
		expect(v21.body).toEqual({
			code: 'INVALID_MODULE',
			details: { resource_path_index: 2 },
			message: 'the module name given seems to be invalid',
			status: 'error',
		});
		const v2 = await call('GET', '/crm/v2/settings/modules/4876876000000999999');
		expect(v2.status).toBe(400);
		expect(v2.body).toEqual({
			code: 'INVALID_MODULE',
			details: {},
			message: 'the module name given seems to be invalid',
			status: 'error',
		});
	});
});

describe('UpdateModuleByAPIName / UpdateModuleById', () => {
	it('updates by API name: one success item with details id and api_name', async () => {
		const before = (await call('GET', '/crm/v2.1/settings/modules/Campaigns')).body.modules[0];
		await advanceClock(2000);
		const res = await call('PUT', '/crm/v2.1/settings/modules/Campaigns', {
			body: { modules: [{ plural_label: 'Drives' }] },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			modules: [
				{
					code: 'SUCCESS',
					details: { id: before.id, api_name: 'Campaigns' },
					message: 'module updated successfully',
					status: 'success',
				},
			],
		});
		const after = (await call('GET', '/crm/v2.1/settings/modules/Campaigns')).body.modules[0];
		expect(after.plural_label).toBe('Drives');
		expect(after.singular_label).toBe(before.singular_label);
		expect(after.api_name).toBe('Campaigns');
		expect(Date.parse(after.modified_time)).toBeGreaterThan(Date.parse(before.modified_time));
		// records of the module are still served under the canonical name
		expect([200, 204]).toContain(
			(await call('GET', '/crm/v2.1/Campaigns', { query: { per_page: 1 } })).status,
		);
	});

	it('updates by id', async () => {
		const module = (await call('GET', '/crm/v2.1/settings/modules/Solutions')).body.modules[0];
		const res = await call('PUT', `/crm/v2/settings/modules/${module.id}`, {
			body: { modules: [{ singular_label: 'Answer', sequence_number: 7 }] },
		});
		expect(res.status).toBe(200);
		expect(res.body.modules).toHaveLength(1);
		expect(res.body.modules[0]).toEqual({
			code: 'SUCCESS',
			details: { id: module.id, api_name: 'Solutions' },
			message: 'module updated successfully',
			status: 'success',
		});
		const after = (await call('GET', `/crm/v2.1/settings/modules/${module.id}`)).body.modules[0];
		expect(after.singular_label).toBe('Answer');
		expect(after.sequence_number).toBe(7);
	});

	it('takes exactly one item', async () => {
		const two = await call('PUT', '/crm/v2.1/settings/modules/Leads', {
			body: { modules: [{ plural_label: 'A' }, { plural_label: 'B' }] },
		});
		expect(two.status).toBe(400);
		expect(two.body.code).toBe('LIMIT_EXCEEDED');
		expect(two.body.details.limit).toBe(1);
		const none = await call('PUT', '/crm/v2.1/settings/modules/Leads', { body: { modules: [] } });
		expect(none.status).toBe(400);
		expect(none.body.code).toBe('MANDATORY_NOT_FOUND');
		const missing = await call('PUT', '/crm/v2.1/settings/modules/Leads', { body: {} });
		expect(missing.status).toBe(400);
		expect(missing.body).toEqual(
			expect.objectContaining({ code: 'MANDATORY_NOT_FOUND', details: { api_name: 'modules' } }),
		);
		const leads = (await call('GET', '/crm/v2.1/settings/modules/Leads')).body.modules[0];
		expect(leads.plural_label).toBe('Leads');
	});

	it('refuses invalid values and read-only keys with INVALID_DATA', async () => {
		const long = await call('PUT', '/crm/v2.1/settings/modules/Leads', {
			body: { modules: [{ plural_label: 'x'.repeat(26) }] },
		});
		expect(long.status).toBe(400);
		expect(long.body.code).toBe('INVALID_DATA');
		expect(long.body.details.api_name).toBe('plural_label');
		const readOnly = await call('PUT', '/crm/v2.1/settings/modules/Leads', {
			body: { modules: [{ generated_type: 'custom' }] },
		});
		expect(readOnly.status).toBe(400);
		expect(readOnly.body.code).toBe('INVALID_DATA');
		expect(readOnly.body.details.api_name).toBe('generated_type');
		const leads = (await call('GET', '/crm/v2.1/settings/modules/Leads')).body.modules[0];
		expect(leads.generated_type).toBe('default');
	});

	it('an unknown module answers 400 INVALID_MODULE', async () => {
		const res = await call('PUT', '/crm/v2.1/settings/modules/Nope', {
			body: { modules: [{ plural_label: 'x' }] },
		});
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_MODULE');
	});
});

describe('GetFields', () => {
	it('lists the fields of a module', async () => {
		const res = await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Leads' } });
		expect(res.status).toBe(200);
		const fields: any[] = res.body.fields;
		const byName = new Map(fields.map((f) => [f.api_name, f]));
		for (const f of fields) {
			expect(f.id).toMatch(ID);
			expect(typeof f.data_type).toBe('string');
			expect(typeof f.field_label).toBe('string');
		}
		expect(new Set(fields.map((f) => f.id)).size).toBe(fields.length);
		expect(byName.get('Last_Name')).toEqual(
			expect.objectContaining({ data_type: 'text', mandatory: true, length: 80 }),
		);
		expect(byName.get('Email')).toEqual(expect.objectContaining({ data_type: 'email' }));
		expect(byName.get('Email').unique).not.toEqual({});
		expect(byName.get('External_Lead_ID').external).not.toBeNull();
		expect(byName.get('Company').external).toBeNull();
		expect(byName.get('Lead_Source').data_type).toBe('picklist');
		expect(byName.get('Lead_Source').pick_list_values.map((p: any) => p.actual_value)).toContain(
			'Web Download',
		);
		expect(byName.get('Created_Time')).toEqual(
			expect.objectContaining({ data_type: 'datetime', read_only: true }),
		);
		expect(byName.has('Description')).toBe(true);
	});

	it('every module is served, lookups name their target', async () => {
		for (const name of [...STANDARD_MODULES, 'Projects']) {
			const res = await call('GET', '/crm/v2.1/settings/fields', { query: { module: name } });
			expect(res.status).toBe(200);
			expect(res.body.fields.length).toBeGreaterThan(0);
		}
		const contacts = await call('GET', '/crm/v2.1/settings/fields', {
			query: { module: 'Contacts' },
		});
		const account = contacts.body.fields.find((f: any) => f.api_name === 'Account_Name');
		expect(account.data_type).toBe('lookup');
		expect(account.lookup.module.api_name).toBe('Accounts');
	});

	it('module matches case-insensitively', async () => {
		const canonical = await call('GET', '/crm/v2.1/settings/fields', {
			query: { module: 'Deals' },
		});
		const lower = await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'deals' } });
		expect(lower.status).toBe(200);
		expect(lower.body).toEqual(canonical.body);
	});

	it('v2 fields carry private and section_id, v2.1 fields do not', async () => {
		const v2 = await call('GET', '/crm/v2/settings/fields', { query: { module: 'Leads' } });
		const v21 = await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Leads' } });
		expect(v2.body.fields[0]).toHaveProperty('section_id');
		expect(v2.body.fields[0].history_tracking).toBe(false);
		expect(v21.body.fields[0]).not.toHaveProperty('section_id');
		expect(v2.body.fields.map((f: any) => f.id)).toEqual(v21.body.fields.map((f: any) => f.id));
	});

	it('a missing module answers 400 REQUIRED_PARAM_MISSING', async () => {
		const v21 = await call('GET', '/crm/v2.1/settings/fields');
		expect(v21.status).toBe(400);
		expect(v21.body).toEqual(
			expect.objectContaining({ code: 'REQUIRED_PARAM_MISSING', status: 'error' }),
		);
		expect(v21.body.details.param).toBe('module');
		const v2 = await call('GET', '/crm/v2/settings/fields');
		expect(v2.status).toBe(400);
		expect(v2.body.details).toEqual({ param: 'module' });
	});

	it('an unknown module answers 400 INVALID_MODULE', async () => {
		const res = await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Starships' } });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_MODULE');
		expect(res.body.status).toBe('error');
	});

	it('type=unused lists nothing: 204', async () => {
		const res = await call('GET', '/crm/v2.1/settings/fields', {
			query: { module: 'Leads', type: 'unused' },
		});
		expect(res.status).toBe(204);
		expect(res.body).toBeUndefined();
	});

	it('field ids are unique across modules', async () => {
		const ids = new Set<string>();
		let total = 0;
		for (const name of ['Leads', 'Contacts', 'Accounts', 'Projects']) {
			const res = await call('GET', '/crm/v2.1/settings/fields', { query: { module: name } });
			for (const f of res.body.fields) ids.add(f.id);
			total += res.body.fields.length;
		}
		expect(ids.size).toBe(total);
	});
});

describe('GetField', () => {
	it('answers one field by id', async () => {
		const list = await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Accounts' } });
		const field = list.body.fields.find((f: any) => f.api_name === 'Account_Name');
		const res = await call('GET', `/crm/v2.1/settings/fields/${field.id}`, {
			query: { module: 'accounts' },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ fields: [field] });
	});

	it('module is optional: the id alone finds the field', async () => {
		const list = await call('GET', '/crm/v2/settings/fields', { query: { module: 'Projects' } });
		const field = list.body.fields.find((f: any) => f.api_name === 'Project_Code');
		const res = await call('GET', `/crm/v2/settings/fields/${field.id}`);
		expect(res.status).toBe(200);
		expect(res.body.fields).toHaveLength(1);
		expect(res.body.fields[0]).toEqual(field);
	});

	it('an unknown field id answers 204; an unknown module 400 INVALID_MODULE', async () => {
		const none = await call('GET', '/crm/v2.1/settings/fields/4876876000000000001', {
			query: { module: 'Leads' },
		});
		expect(none.status).toBe(204);
		const bad = await call('GET', '/crm/v2.1/settings/fields/4876876000000000001', {
			query: { module: 'Starships' },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('INVALID_MODULE');
	});
});
