// Contract tests: mandatory fields through the API are the system-mandatory ones only
// (docs/protocol.md §3.10, §11.2). Form-layout required fields are reported by the layouts but never
// enforced on API writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken, startTestSandbox } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL,CRM.settings.ALL' });
const { call } = sb;
let productId: string;

beforeAll(async () => {
	productId = (await call('GET', '/crm/v2.1/Products', { query: { per_page: 1 } })).body.data[0].id;
});

const unique = (label: string) =>
	`${label} ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** Each standard module of §3.10 with its system-mandatory fields and a value for each. */
const MODULES: Array<{ module: string; values: () => Record<string, unknown> }> = [
	{ module: 'Leads', values: () => ({ Last_Name: unique('Lead') }) },
	{ module: 'Contacts', values: () => ({ Last_Name: unique('Contact') }) },
	{ module: 'Accounts', values: () => ({ Account_Name: unique('Account') }) },
	{ module: 'Deals', values: () => ({ Deal_Name: unique('Deal'), Stage: 'Qualification' }) },
	{ module: 'Tasks', values: () => ({ Subject: unique('Task') }) },
	{ module: 'Products', values: () => ({ Product_Name: unique('Product') }) },
	{ module: 'Campaigns', values: () => ({ Campaign_Name: unique('Campaign') }) },
	{ module: 'Vendors', values: () => ({ Vendor_Name: unique('Vendor') }) },
	{ module: 'Solutions', values: () => ({ Solution_Title: unique('Solution') }) },
	{
		module: 'Quotes',
		values: () => ({
			Subject: unique('Quote'),
			Product_Details: [{ product: { id: productId }, quantity: 2 }],
		}),
	},
	{
		module: 'Sales_Orders',
		values: () => ({
			Subject: unique('Order'),
			Product_Details: [{ product: { id: productId }, quantity: 1 }],
		}),
	},
	{
		module: 'Invoices',
		values: () => ({
			Subject: unique('Invoice'),
			Product_Details: [{ product: { id: productId }, quantity: 3 }],
		}),
	},
];

describe.each(MODULES)('$module', ({ module, values }) => {
	const mandatory = Object.keys(values());

	it('GetFields reports exactly the system-mandatory fields', async () => {
		const res = await call('GET', '/crm/v2.1/settings/fields', { query: { module } });
		expect(res.status).toBe(200);
		const flagged = res.body.fields
			.filter((f: any) => f.system_mandatory === true)
			.map((f: any) => f.api_name);
		expect(flagged.sort()).toEqual([...mandatory].sort());
		const required = res.body.fields
			.filter((f: any) => f.mandatory === true)
			.map((f: any) => f.api_name);
		expect(required.sort()).toEqual([...mandatory].sort());
	});

	it('creates a record with only the mandatory fields', async () => {
		const data = values();
		const res = await call('POST', `/crm/v2.1/${module}`, { body: { data: [data] } });
		expect(res.status).toBe(201);
		expect(res.body.data[0]).toMatchObject({
			code: 'SUCCESS',
			action: 'insert',
			status: 'success',
		});
		const stored = (await call('GET', `/crm/v2.1/${module}/${res.body.data[0].details.id}`)).body
			.data[0];
		for (const [key, value] of Object.entries(data)) {
			if (key === 'Product_Details') {
				expect(stored.Product_Details).toEqual([
					expect.objectContaining({ product: expect.objectContaining({ id: productId }) }),
				]);
			} else {
				expect(stored[key]).toEqual(value);
			}
		}
	});

	it.each(mandatory)(
		'refuses a record without %s: MANDATORY_NOT_FOUND naming it',
		async (field) => {
			const data = values();
			delete data[field];
			const before = (await call('GET', `/crm/v2.1/${module}/actions/count`)).body.count;
			const res = await call('POST', `/crm/v2.1/${module}`, { body: { data: [data] } });
			expect(res.status).toBe(400);
			expect(res.body.data).toEqual([
				{
					code: 'MANDATORY_NOT_FOUND',
					details: { api_name: field, json_path: `$.data[0].${field}` },
					message: 'required field not found',
					status: 'error',
				},
			]);
			const v2 = await call('POST', `/crm/v2/${module}`, { body: { data: [data] } });
			expect(v2.body.data[0]).toEqual({
				code: 'MANDATORY_NOT_FOUND',
				details: { api_name: field },
				message: 'required field not found',
				status: 'error',
			});
			expect((await call('GET', `/crm/v2.1/${module}/actions/count`)).body.count).toBe(before);
		},
	);
});

describe('form-layout rules are not API rules', () => {
	it('a Deal with only Deal_Name and Stage succeeds although the layout requires Closing_Date and Account_Name', async () => {
		const res = await call('POST', '/crm/v2.1/Deals', {
			body: { data: [{ Deal_Name: unique('Bare deal'), Stage: 'Needs Analysis' }] },
		});
		expect(res.status).toBe(201);
		const deal = (await call('GET', `/crm/v2.1/Deals/${res.body.data[0].details.id}`)).body.data[0];
		expect(deal.Stage).toBe('Needs Analysis');
		expect(deal.Closing_Date ?? null).toBeNull();
		expect(deal.Account_Name ?? null).toBeNull();
	});

	it('a Lead without Company succeeds, and an update may clear Company but not Last_Name', async () => {
		const res = await call('POST', '/crm/v2.1/Leads', {
			body: { data: [{ Last_Name: unique('No company'), Company: 'Acme' }] },
		});
		const id = res.body.data[0].details.id;
		const cleared = await call('PUT', `/crm/v2.1/Leads/${id}`, {
			body: { data: [{ Company: '' }] },
		});
		expect(cleared.body.data[0].code).toBe('SUCCESS');
		const noName = await call('PUT', `/crm/v2.1/Leads/${id}`, {
			body: { data: [{ Last_Name: null }] },
		});
		expect(noName.body.data[0]).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'Last_Name' },
		});
	});

	it('the layouts report their own required fields', async () => {
		const requiredIn = async (module: string): Promise<string[]> => {
			const [layout] = (await call('GET', '/crm/v2.1/settings/layouts', { query: { module } })).body
				.layouts;
			return layout.sections
				.flatMap((s: any) => s.fields)
				.filter((f: any) => f.required === true)
				.map((f: any) => f.api_name);
		};
		expect(await requiredIn('Deals')).toEqual(
			expect.arrayContaining(['Deal_Name', 'Stage', 'Closing_Date', 'Account_Name']),
		);
		expect(await requiredIn('Leads')).toEqual(expect.arrayContaining(['Last_Name', 'Company']));
		const fields = (await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Deals' } }))
			.body.fields;
		expect(fields.find((f: any) => f.api_name === 'Closing_Date')).toMatchObject({
			system_mandatory: false,
			mandatory: false,
		});
	});

	it('line items name an existing product', async () => {
		const res = await call('POST', '/crm/v2.1/Quotes', {
			body: {
				data: [
					{
						Subject: unique('Bad quote'),
						Product_Details: [{ product: { id: '4876876999999999999' }, quantity: 1 }],
					},
				],
			},
		});
		expect(res.status).toBe(400);
		expect(res.body.data[0]).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'product', json_path: '$.data[0].Product_Details[0].product' },
		});
	});
});

describe('a store seeded with the former layout-style rules', () => {
	it('gets the system-mandatory rules and the standard related lists on its next start', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'crm-sandbox-mandatory-'));
		const dbPath = join(dir, 'sandbox.db');
		try {
			const first = await startTestSandbox({ dbPath });
			const { store } = first.sandbox;
			// the store as an earlier sandbox left it: Closing_Date enforced, no line items, fewer lists
			const deals = store.doc<any>('modules', 'Deals');
			deals.fields = deals.fields.map((f: any) =>
				f.api_name === 'Closing_Date'
					? { ...f, mandatory: true, system_mandatory: true, layout_required: undefined }
					: f,
			);
			store.putDoc('modules', 'Deals', deals);
			const quotes = store.doc<any>('modules', 'Quotes');
			store.putDoc('modules', 'Quotes', {
				...quotes,
				fields: quotes.fields.filter((f: any) => f.api_name !== 'Product_Details'),
			});
			const leads = store.doc<any>('modules', 'Leads');
			store.putDoc('modules', 'Leads', {
				...leads,
				related_lists: leads.related_lists.filter((l: any) =>
					['Notes', 'Attachments'].includes(l.module),
				),
			});
			store.db.prepare('DELETE FROM meta WHERE key = ?').run('seeded:system_mandatory_fields');
			await first.close();

			const second = await startTestSandbox({ dbPath });
			try {
				const tok = (await grantToken(second.url, { scope: 'CRM.modules.ALL,CRM.settings.ALL' }))
					.access_token;
				const fields = (
					await api(`${second.url}/crm/v2.1/settings/fields`, tok, { query: { module: 'Deals' } })
				).body.fields;
				expect(fields.find((f: any) => f.api_name === 'Closing_Date')).toMatchObject({
					mandatory: false,
					system_mandatory: false,
				});
				const deal = await api(`${second.url}/crm/v2.1/Deals`, tok, {
					method: 'POST',
					body: { data: [{ Deal_Name: 'After restart', Stage: 'Qualification' }] },
				});
				expect(deal.status).toBe(201);
				const quote = await api(`${second.url}/crm/v2.1/Quotes`, tok, {
					method: 'POST',
					body: { data: [{ Subject: 'No lines' }] },
				});
				expect(quote.body.data[0]).toMatchObject({
					code: 'MANDATORY_NOT_FOUND',
					details: { api_name: 'Product_Details' },
				});
				const lists = (
					await api(`${second.url}/crm/v2.1/settings/related_lists`, tok, {
						query: { module: 'Leads' },
					})
				).body.related_lists;
				expect(lists.map((l: any) => l.api_name)).toEqual(
					expect.arrayContaining(['Products', 'Campaigns', 'Notes', 'Attachments']),
				);
			} finally {
				await second.close();
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
