// CRM Admin › Tax through n8n's engine against the sandbox: GetTaxes (taxes and preference),
// GetTax, CreateTaxes, UpdateTaxes (100 per request), DeleteTax / DeleteTaxes.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

const SALES_TAX = '4876876000000381001';
const VAT = '4876876000000381003';
const SERVICE_TAX = '4876876000000381005';

describe('CRM Admin › Tax (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const tax = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmAdmin', { resource: 'tax', ...params } as any, extra);
	const stored = async () =>
		((await crm.api('GET', '/crm/v2.1/org/taxes')).body?.taxes ?? []).map(
			(t: any) => `${t.sequence_number}:${t.name}:${t.value}`,
		);

	test('Get Many lists the taxes, Get Preference the preference, Get one tax', async () => {
		const getAll = tax({ operation: 'getAll' });
		expect(outputOf(await crm.run(getAll), getAll.name).map((i) => i.json.display_label)).toEqual([
			'Sales Tax - 8.25 %',
			'VAT - 20 %',
			'Service Tax - 5 %',
		]);
		const preference = tax({ operation: 'getPreference' });
		expect(outputOf(await crm.run(preference), preference.name).map((i) => i.json)).toEqual([
			{ modify_tax_rates: true, auto_populate_tax: false },
		]);
		const get = tax({ operation: 'get', taxId: VAT });
		expect(outputOf(await crm.run(get), get.name).map((i) => i.json)).toEqual([
			{ id: VAT, name: 'VAT', display_label: 'VAT - 20 %', value: 20, sequence_number: 2 },
		]);
	});

	test('Create sends the items in one CreateTaxes request; positions are honoured', async () => {
		await crm.clearRequests();
		const create = tax({
			operation: 'create',
			taxName: '={{ $json.name }}',
			taxValue: '={{ $json.value }}',
			additionalFields: { sequence_number: '={{ $json.seq }}' },
		});
		const out = outputOf(
			await crm.run(create, [
				{ json: { name: 'Luxury Tax', value: 12.5, seq: 1 } },
				{ json: { name: 'Eco Fee', value: 1.5, seq: 5 } },
			]),
			create.name,
		);
		expect(out.map((i) => i.json.message)).toEqual(['tax added', 'tax added']);
		expect(
			(await crm.requests()).filter((r) => r.method === 'POST' && r.url === '/crm/v2.1/org/taxes'),
		).toHaveLength(1);
		expect(await stored()).toEqual([
			'1:Luxury Tax:12.5',
			'2:Sales Tax:8.25',
			'3:VAT:20',
			'4:Service Tax:5',
			'5:Eco Fee:1.5',
		]);
	});

	test('Update sends one UpdateTaxes request; a repeated sequence number fails those items only', async () => {
		const update = tax({
			operation: 'update',
			taxId: '={{ $json.id }}',
			updateFields: { value: '={{ $json.value }}' },
		});
		const out = outputOf(
			await crm.run(update, [
				{ json: { id: VAT, value: 19 } },
				{ json: { id: SALES_TAX, value: 9 } },
			]),
			update.name,
		);
		expect(out.map((i) => [i.json.id, i.json.message])).toEqual([
			[VAT, 'record updated'],
			[SALES_TAX, 'record updated'],
		]);
		const clash = tax(
			{ operation: 'update', taxId: '={{ $json.id }}', updateFields: { sequence_number: 1 } },
			{ onError: 'continueRegularOutput', name: 'Clash' },
		);
		const clashed = outputOf(
			await crm.run(clash, [{ json: { id: VAT } }, { json: { id: SALES_TAX } }]),
			'Clash',
		);
		expect(clashed.map((i) => (i.json.details as any)?.message)).toEqual([
			'sequence number cannot be repeated in the same request',
			'sequence number cannot be repeated in the same request',
		]);
		expect(await stored()).toEqual([
			'1:Luxury Tax:12.5',
			'2:Sales Tax:9',
			'3:VAT:19',
			'4:Service Tax:5',
			'5:Eco Fee:1.5',
		]);
	});

	test('Delete: one item uses DeleteTax, several one DeleteTaxes request', async () => {
		await crm.clearRequests();
		const one = tax({ operation: 'delete', taxId: SERVICE_TAX });
		expect(outputOf(await crm.run(one), one.name)[0].json).toMatchObject({
			id: SERVICE_TAX,
			message: 'tax deleted',
		});
		expect((await crm.requests()).filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
			`/crm/v2.1/org/taxes/${SERVICE_TAX}`,
		]);

		const ids = (await crm.api('GET', '/crm/v2.1/org/taxes')).body.taxes
			.filter((t: any) => t.name !== 'VAT')
			.map((t: any) => t.id);
		await crm.clearRequests();
		const many = tax({ operation: 'delete', taxId: '={{ $json.id }}' });
		const out = outputOf(
			await crm.run(
				many,
				ids.map((id: string) => ({ json: { id } })),
			),
			many.name,
		);
		expect(out.map((i) => i.json.id)).toEqual(ids);
		const deletes = (await crm.requests()).filter((r) => r.method === 'DELETE');
		expect(deletes).toHaveLength(1);
		expect(deletes[0].url).toContain('/crm/v2.1/org/taxes?ids=');
		expect(await stored()).toEqual(['1:VAT:19']);

		const gone = tax({ operation: 'delete', taxId: SERVICE_TAX }, { name: 'Gone' });
		expect(errorOf(await crm.run(gone), 'Gone')?.message).toContain('INVALID_DATA');
	});
});
