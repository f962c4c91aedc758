// CRM Admin › Currency through n8n's engine against the sandbox: GetCurrencies, GetCurrency,
// EnableMultipleCurrencies, AddCurrencies (10 per request), UpdateCurrency / UpdateCurrencies,
// UpdateBaseCurrency.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

const BASE = '4876876000000371001';
const ISO = ['EUR', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF'];

describe('CRM Admin › Currency (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const currency = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmAdmin', { resource: 'currency', ...params } as any, extra);
	const list = async () =>
		(await crm.api('GET', '/crm/v2.1/org/currencies')).body.currencies as any[];
	const posts = async () =>
		(await crm.requests()).filter(
			(r) => r.method === 'POST' && r.url === '/crm/v2.1/org/currencies',
		);

	test('Get Many and Get read the home currency', async () => {
		const getAll = currency({ operation: 'getAll' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.iso_code)).toEqual(['USD']);
		const get = currency({ operation: 'get', currencyId: BASE });
		expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
			id: BASE,
			is_base: true,
			exchange_rate: '1.000000000',
		});
	});

	test('Add before multi-currency is enabled surfaces CURRENCIES_NOT_ENABLED', async () => {
		const add = currency({
			operation: 'create',
			isoCode: 'EUR',
			currencyName: 'Euro',
			symbol: '€',
			exchangeRate: '0.9',
		});
		expect(errorOf(await crm.run(add), add.name)?.message).toContain('CURRENCIES_NOT_ENABLED');
	});

	test('Enable Multi-Currency sets the base; enabling again surfaces ALREADY_ENABLED', async () => {
		const enable = currency({
			operation: 'enableMultiCurrency',
			isoCode: 'usd',
			currencyName: 'US Dollar',
			symbol: '$',
			additionalFields: { decimal_places: '2' },
		});
		const [out] = outputOf(await crm.run(enable), enable.name);
		expect(out.json).toMatchObject({
			id: BASE,
			code: 'SUCCESS',
			message: 'multi-currency enabled with the given currency as base',
		});
		expect((await crm.api('GET', '/crm/v2.1/org')).body.org[0].mc_status).toBe(true);
		const again = currency(
			{ operation: 'enableMultiCurrency', isoCode: 'USD', currencyName: 'US Dollar', symbol: '$' },
			{ name: 'Again' },
		);
		expect(errorOf(await crm.run(again), 'Again')?.message).toContain('ALREADY_ENABLED');
	});

	test('Add sends 10 currencies per request and pairs every result with its item', async () => {
		await crm.clearRequests();
		const add = currency({
			operation: 'create',
			isoCode: '={{ $json.iso }}',
			currencyName: '={{ $json.iso }} currency',
			symbol: '={{ $json.iso }}',
			exchangeRate: '={{ $json.rate }}',
			additionalFields: { decimal_separator: 'Comma' },
		});
		const input = ISO.map((iso, i) => ({ json: { iso, rate: String(0.5 + i) } }));
		const out = outputOf(await crm.run(add, input), add.name);
		expect(out).toHaveLength(12);
		expect(out.every((i) => i.json.status === 'success')).toBe(true);
		expect(await posts()).toHaveLength(2);
		const stored = await list();
		expect(stored.map((c) => c.iso_code)).toEqual(['USD', ...ISO]);
		expect(stored.find((c) => c.iso_code === 'GBP')).toMatchObject({
			exchange_rate: '1.500000000',
			format: { decimal_separator: 'Comma', thousand_separator: 'Period', decimal_places: '2' },
		});
	});

	test('Add validates before sending: ISO code shape and a positive exchange rate', async () => {
		await crm.clearRequests();
		const bad = currency({
			operation: 'create',
			isoCode: 'EURO',
			currencyName: 'Euro',
			symbol: '€',
			exchangeRate: '1',
		});
		expect(errorOf(await crm.run(bad), bad.name)?.message).toContain(
			'ISO Code must be three letters',
		);
		const rate = currency(
			{
				operation: 'create',
				isoCode: 'NZD',
				currencyName: 'NZ Dollar',
				symbol: 'NZ$',
				exchangeRate: 'zero',
			},
			{ name: 'Rate' },
		);
		expect(errorOf(await crm.run(rate), 'Rate')?.message).toContain(
			'Exchange Rate must be a positive number',
		);
		expect(await posts()).toHaveLength(0);
	});

	test('Update: one item uses UpdateCurrency, several one UpdateCurrencies request; base rules surface', async () => {
		const byIso = async (iso: string) =>
			(await list()).find((c) => c.iso_code === iso).id as string;
		const eur = await byIso('EUR');
		const gbp = await byIso('GBP');
		await crm.clearRequests();
		const one = currency({
			operation: 'update',
			currencyId: eur,
			updateFields: { exchange_rate: '0.8', symbol: 'EUR€' },
		});
		expect(outputOf(await crm.run(one), one.name)[0].json).toMatchObject({
			id: eur,
			message: 'currency updated',
		});
		expect(
			(await crm.requests()).some(
				(r) => r.method === 'PUT' && r.url === `/crm/v2.1/org/currencies/${eur}`,
			),
		).toBe(true);

		await crm.clearRequests();
		const many = currency(
			{ operation: 'update', currencyId: '={{ $json.id }}', updateFields: { is_active: false } },
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(many, [{ json: { id: gbp } }, { json: { id: BASE } }]),
			many.name,
		);
		expect(out[0].json).toMatchObject({ id: gbp, status: 'success' });
		expect(out[1].json.error).toContain('NOT_ALLOWED');
		expect((await crm.requests()).filter((r) => r.method === 'PUT').map((r) => r.url)).toEqual([
			'/crm/v2.1/org/currencies',
		]);
		const stored = await list();
		expect(stored.find((c) => c.id === eur)).toMatchObject({
			exchange_rate: '0.800000000',
			symbol: 'EUR€',
		});
		expect(stored.find((c) => c.id === gbp).is_active).toBe(false);
	});

	test('Update Base Currency re-bases the rates to another added currency', async () => {
		const base = currency({ operation: 'updateBaseCurrency', updateFields: { iso_code: 'EUR' } });
		const [out] = outputOf(await crm.run(base), base.name);
		expect(out.json).toMatchObject({ code: 'SUCCESS', status: 'success' });
		const stored = await list();
		expect(stored.find((c) => c.is_base).iso_code).toBe('EUR');
		expect(stored.find((c) => c.iso_code === 'USD').exchange_rate).toBe('1.250000000');
		expect((await crm.api('GET', '/crm/v2.1/org')).body.org[0].iso_code).toBe('EUR');
		const empty = currency(
			{ operation: 'updateBaseCurrency', updateFields: {} },
			{ name: 'Empty' },
		);
		expect(errorOf(await crm.run(empty), 'Empty')?.message).toContain('Add at least one field');
	});
});
