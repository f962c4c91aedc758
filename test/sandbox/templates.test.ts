// Contract tests of the sandbox email and inventory templates (docs/protocol.md §5.7, v2.1 only) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.templates.email.READ,CRM.templates.inventory.READ' });
const { call } = sb;
const MARIA = '4876876000000225021';

describe('GetEmailTemplates / GetEmailTemplateById', () => {
	it('lists the templates of a module with info; lists leave out the content', async () => {
		const res = await call('GET', '/crm/v2.1/settings/email_templates', {
			query: { module: 'Leads' },
		});
		expect(res.status).toBe(200);
		expect(res.body.email_templates.map((t: any) => t.name)).toEqual([
			'Welcome New Lead',
			'Trade Show Follow-up',
			'Lead Re-engagement',
		]);
		expect(res.body.info).toEqual({ per_page: 200, count: 3, page: 1, more_records: false });
		const [welcome, tradeShow, plain] = res.body.email_templates;
		expect(welcome).toMatchObject({
			type: 'normal',
			favorite: true,
			associated: true,
			module: { api_name: 'Leads' },
			folder: { name: 'Sales Templates' },
			consent_linked: false,
		});
		expect(welcome).not.toHaveProperty('content');
		expect(tradeShow.attachments).toEqual([
			{
				file_name: 'product-brochure.pdf',
				size: 48213,
				id: expect.stringMatching(/^\d{19}$/),
				file_id: expect.any(String),
			},
		]);
		expect(tradeShow.created_by).toEqual({ id: MARIA, name: 'Maria Lopez' });
		expect(plain.editor_mode).toBe('plain_text');
	});

	it('answers one template by id with its content', async () => {
		const [welcome] = (
			await call('GET', '/crm/v2.1/settings/email_templates', { query: { module: 'Leads' } })
		).body.email_templates;
		const res = await call('GET', `/crm/v2.1/settings/email_templates/${welcome.id}`);
		expect(res.status).toBe(200);
		expect(res.body.email_templates).toHaveLength(1);
		expect(res.body.email_templates[0]).toMatchObject({
			...welcome,
			subject: 'Thanks for your interest, ${Leads.First Name}',
		});
		expect(res.body.email_templates[0].content).toContain('${Leads.First Name}');
		expect(res.body.info).toMatchObject({ count: 1, more_records: false });
	});

	it('module is required; modules without templates answer 204; unsupported modules 403', async () => {
		expect((await call('GET', '/crm/v2.1/settings/email_templates')).body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param_name: 'module' },
		});
		expect(
			(await call('GET', '/crm/v2.1/settings/email_templates', { query: { module: 'Projects' } }))
				.body.email_templates,
		).toHaveLength(1);
		const products = await call('GET', '/crm/v2.1/settings/email_templates', {
			query: { module: 'Products' },
		});
		expect(products.status).toBe(403);
		expect(products.body).toMatchObject({ code: 'FEATURE_NOT_SUPPORTED', status: 'error' });
		expect(
			(await call('GET', '/crm/v2.1/settings/email_templates', { query: { module: 'Nope' } })).body
				.code,
		).toBe('INVALID_MODULE');
	});

	it('unknown ids and inventory ids answer 400 INVALID_DATA; v2 answers 404; the scope is checked', async () => {
		const [quote] = (
			await call('GET', '/crm/v2.1/settings/inventory_templates', { query: { module: 'Quotes' } })
		).body.inventory_templates;
		expect(
			(await call('GET', `/crm/v2.1/settings/email_templates/${quote.id}`)).body,
		).toMatchObject({ code: 'INVALID_DATA', details: { id: quote.id } });
		expect(
			(await call('GET', '/crm/v2.1/settings/email_templates/4876876000000000042')).status,
		).toBe(400);
		expect(
			(await call('GET', '/crm/v2/settings/email_templates', { query: { module: 'Leads' } }))
				.status,
		).toBe(404);
		const inventoryOnly = (await grantToken(sb.url, { scope: 'CRM.templates.inventory.READ' }))
			.access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/email_templates?module=Leads`, inventoryOnly)).body
				.code,
		).toBe('OAUTH_SCOPE_MISMATCH');
	});
});

describe('GetInventoryTemplates / GetInventoryTemplatebyID', () => {
	const names = (res: any) => res.body.inventory_templates.map((t: any) => t.name);

	it("lists a module's templates, newest modification first by default", async () => {
		const res = await call('GET', '/crm/v2.1/settings/inventory_templates', {
			query: { module: 'Quotes' },
		});
		expect(res.status).toBe(200);
		expect(names(res)).toEqual(['Quote - Draft Redesign', 'Quote - Compact', 'Standard Quote']);
		expect(res.body.info).toMatchObject({
			count: 3,
			more_records: false,
			sort_by: 'modified_time',
			sort_order: 'desc',
		});
		expect(res.body.inventory_templates[0]).toMatchObject({
			type: 'inventory',
			draft: true,
			module: { api_name: 'Quotes' },
		});
		expect(res.body.inventory_templates[0]).not.toHaveProperty('attachments');
		expect(res.body.inventory_templates[0]).not.toHaveProperty('content');
	});

	it('sorts by sort_by / sort_order and filters by category', async () => {
		const byName = await call('GET', '/crm/v2.1/settings/inventory_templates', {
			query: { module: 'Quotes', sort_by: 'name', sort_order: 'asc' },
		});
		expect(names(byName)).toEqual(['Quote - Compact', 'Quote - Draft Redesign', 'Standard Quote']);
		const favorite = await call('GET', '/crm/v2.1/settings/inventory_templates', {
			query: { module: 'Invoices', category: 'favorite' },
		});
		expect(names(favorite)).toEqual(['Standard Invoice']);
		const mine = await call('GET', '/crm/v2.1/settings/inventory_templates', {
			query: { module: 'Quotes', category: 'created_by_me' },
		});
		expect(names(mine)).toEqual(['Quote - Draft Redesign', 'Standard Quote']);
		const shared = await call('GET', '/crm/v2.1/settings/inventory_templates', {
			query: { module: 'Quotes', category: 'shared_with_me' },
		});
		expect(names(shared)).toEqual(['Quote - Compact']);
		const drafts = await call('GET', '/crm/v2.1/settings/inventory_templates', {
			query: { module: 'Quotes', category: 'draft' },
		});
		expect(names(drafts)).toEqual(['Quote - Draft Redesign']);
		expect(
			(
				await call('GET', '/crm/v2.1/settings/inventory_templates', {
					query: { module: 'Purchase_Orders', category: 'favorite' },
				})
			).status,
		).toBe(204);
	});

	it('values outside the sets answer 400 PATTERN_NOT_MATCHED', async () => {
		for (const [name, value] of [
			['category', 'mine'],
			['sort_by', 'size'],
			['sort_order', 'up'],
		]) {
			const res = await call('GET', '/crm/v2.1/settings/inventory_templates', {
				query: { module: 'Quotes', [name]: value },
			});
			expect(res.status).toBe(400);
			expect(res.body).toMatchObject({
				code: 'PATTERN_NOT_MATCHED',
				details: { param_name: name },
				status: 'error',
			});
		}
	});

	it('module is required and must support inventory templates', async () => {
		expect((await call('GET', '/crm/v2.1/settings/inventory_templates')).body.code).toBe(
			'REQUIRED_PARAM_MISSING',
		);
		const leads = await call('GET', '/crm/v2.1/settings/inventory_templates', {
			query: { module: 'Leads' },
		});
		expect(leads.status).toBe(403);
		expect(leads.body.code).toBe('FEATURE_NOT_SUPPORTED');
	});

	it('answers one template by id with its content; query values are checked there too', async () => {
		const [first] = (
			await call('GET', '/crm/v2.1/settings/inventory_templates', { query: { module: 'Invoices' } })
		).body.inventory_templates;
		const res = await call('GET', `/crm/v2.1/settings/inventory_templates/${first.id}`, {
			query: { sort_by: 'name' },
		});
		expect(res.status).toBe(200);
		expect(res.body.inventory_templates[0]).toMatchObject({ id: first.id, name: first.name });
		expect(res.body.inventory_templates[0].content).toContain('${LineItems}');
		expect(
			(
				await call('GET', `/crm/v2.1/settings/inventory_templates/${first.id}`, {
					query: { category: 'x' },
				})
			).body.code,
		).toBe('PATTERN_NOT_MATCHED');
		expect(
			(await call('GET', '/crm/v2.1/settings/inventory_templates/4876876000000000042')).body.code,
		).toBe('INVALID_DATA');
		expect((await call('GET', `/crm/v2/settings/inventory_templates/${first.id}`)).status).toBe(
			404,
		);
	});
});
