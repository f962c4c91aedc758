// Contract tests of the sandbox currencies (docs/protocol.md §5.9, §6, §12) over HTTP: the
// multi-currency switch, ISO codes, base-currency rules and re-basing.
import { useContractFixture } from '../harness/contract.ts';
import type { ApiInit } from '../harness/sandbox.ts';
import { api, grantToken, startTestSandbox } from '../harness/sandbox.ts';

const BASE = '4876876000000371001';
const FORMAT = { thousand_separator: 'Period', decimal_separator: 'Comma', decimal_places: '2' };

const sb = useContractFixture({ scope: 'CRM.settings.currencies.ALL,CRM.org.READ' });

const call = async (
	method: string,
	path: string,
	init: Omit<ApiInit, 'method'> = {},
	bearer = sb.token,
) => await api(`${sb.url}/crm/v2.1${path}`, bearer, { ...init, method });

const euro = (extra: Record<string, unknown> = {}) => ({
	name: 'Euro',
	iso_code: 'EUR',
	symbol: '€',
	exchange_rate: '0.5',
	format: FORMAT,
	...extra,
});

describe('before multi-currency is enabled', () => {
	it('GetCurrencies lists the home currency as the only, base, active currency', async () => {
		const res = await call('GET', '/org/currencies');
		expect(res.status).toBe(200);
		expect(res.body.currencies).toEqual([
			expect.objectContaining({
				id: BASE,
				iso_code: 'USD',
				name: 'US Dollar',
				symbol: '$',
				exchange_rate: '1.000000000',
				is_base: true,
				is_active: true,
				format: { thousand_separator: 'Comma', decimal_separator: 'Period', decimal_places: '2' },
			}),
		]);
	});

	it.each([
		['POST', '/org/currencies', { currencies: [euro()] }],
		['PUT', '/org/currencies', { currencies: [{ id: BASE, symbol: 'US$' }] }],
		['PUT', `/org/currencies/${BASE}`, { currencies: [{ symbol: 'US$' }] }],
		['PUT', '/org/currencies/actions/enable', { base_currency: { symbol: 'US$' } }],
	])('%s %s answers 403 CURRENCIES_NOT_ENABLED', async (method, path, body) => {
		const res = await call(method, path, { body });
		expect(res.status).toBe(403);
		expect(res.body).toEqual({
			code: 'CURRENCIES_NOT_ENABLED',
			details: {},
			message: 'multi currency is not enabled',
			status: 'error',
		});
	});

	it('enabling checks the base currency: mandatory keys, ISO code, rate 1', async () => {
		const missing = await call('POST', '/org/currencies/actions/enable', {
			body: { base_currency: { iso_code: 'USD', name: 'US Dollar' } },
		});
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'symbol', json_path: '$.base_currency.symbol' },
		});
		const iso = await call('POST', '/org/currencies/actions/enable', {
			body: { base_currency: { iso_code: 'XYZ', name: 'X', symbol: 'X' } },
		});
		expect(iso.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'iso_code' },
			message: 'invalid ISO code',
		});
		const wrapper = await call('POST', '/org/currencies/actions/enable', { body: { base: {} } });
		expect(wrapper.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'base_currency' },
		});
		expect((await call('GET', '/org')).body.org[0].mc_status).toBe(false);
	});

	it('enabling needs CREATE on currencies', async () => {
		const update = (await grantToken(sb.url, { scope: 'CRM.settings.currencies.UPDATE' }))
			.access_token;
		const res = await call(
			'POST',
			'/org/currencies/actions/enable',
			{ body: { base_currency: { iso_code: 'USD', name: 'US Dollar', symbol: '$' } } },
			update,
		);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});

describe('EnableMultipleCurrencies', () => {
	it('enables with the given base (object response); a second time ALREADY_ENABLED', async () => {
		const res = await call('POST', '/org/currencies/actions/enable', {
			body: {
				base_currency: {
					iso_code: 'USD',
					name: 'United States Dollar',
					symbol: '$',
					prefix_symbol: true,
				},
			},
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			base_currency: {
				code: 'SUCCESS',
				details: { id: BASE },
				message: 'multi-currency enabled with the given currency as base',
				status: 'success',
			},
		});
		const org = (await call('GET', '/org')).body.org[0];
		expect(org).toMatchObject({ mc_status: true, iso_code: 'USD' });
		const again = await call('POST', '/org/currencies/actions/enable', {
			body: { base_currency: { iso_code: 'USD', name: 'US Dollar', symbol: '$' } },
		});
		expect(again.status).toBe(400);
		expect(again.body).toEqual({
			code: 'ALREADY_ENABLED',
			details: {},
			message: 'multi-currency already enabled',
			status: 'error',
		});
	});
});

describe('AddCurrencies', () => {
	it('adds up to 10; per-item errors in order; 201 when some succeed', async () => {
		const res = await call('POST', '/org/currencies', {
			body: {
				currencies: [
					euro(),
					{
						name: 'Pound Sterling',
						iso_code: 'GBP',
						symbol: '£',
						exchange_rate: 0.4,
						format: { thousand_separator: 'Comma', decimal_separator: 'Period', decimal_places: 2 },
					},
					euro(),
					euro({ iso_code: 'ABC' }),
					euro({ iso_code: 'usd' }),
					euro({ iso_code: 'CHF', exchange_rate: '-1' }),
					euro({ iso_code: 'CHF', format: { thousand_separator: 'Comma' } }),
					euro({ iso_code: 'CHF', symbol: undefined }),
					euro({ iso_code: 'CHF', format: { ...FORMAT, decimal_separator: 'Period' } }),
				],
			},
		});
		expect(res.status).toBe(201);
		expect(res.body.currencies.map((c: any) => [c.code, c.details.api_name])).toEqual([
			['SUCCESS', undefined],
			['SUCCESS', undefined],
			['DUPLICATE_DATA', 'iso_code'],
			['INVALID_DATA', 'iso_code'],
			['INVALID_DATA', 'iso_code'],
			['INVALID_DATA', 'exchange_rate'],
			['MANDATORY_NOT_FOUND', 'decimal_separator'],
			['MANDATORY_NOT_FOUND', 'symbol'],
			['INVALID_DATA', 'decimal_separator'],
		]);
		expect(res.body.currencies[0]).toEqual({
			code: 'SUCCESS',
			details: { id: expect.stringMatching(/^\d{19}$/) },
			message: 'currency created',
			status: 'success',
		});
		expect(res.body.currencies[6].details.json_path).toBe(
			'$.currencies[6].format.decimal_separator',
		);
		const list = (await call('GET', '/org/currencies')).body.currencies;
		expect(list.map((c: any) => c.iso_code)).toEqual(['USD', 'EUR', 'GBP']);
		expect(list[2]).toMatchObject({
			exchange_rate: '0.400000000',
			is_base: false,
			is_active: true,
			format: { decimal_places: '2' },
		});
	});

	it('more than 10 items: LIMIT_EXCEEDED', async () => {
		const res = await call('POST', '/org/currencies', {
			body: { currencies: Array.from({ length: 11 }, () => euro()) },
		});
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 10, api_name: 'currencies' },
		});
	});

	it('the active-currency limit answers ACTIVE_STATE_LIMIT_EXCEEDED', async () => {
		sb.sandbox.config.knobs.activeCurrencyLimit = 4;
		try {
			const res = await call('POST', '/org/currencies', {
				body: {
					currencies: [
						euro({ iso_code: 'CHF', name: 'Swiss Franc', symbol: 'CHF' }),
						euro({ iso_code: 'JPY', name: 'Yen', symbol: '¥' }),
						euro({ iso_code: 'SEK', is_active: false }),
					],
				},
			});
			expect(res.body.currencies.map((c: any) => c.code)).toEqual([
				'SUCCESS',
				'ACTIVE_STATE_LIMIT_EXCEEDED',
				'SUCCESS',
			]);
		} finally {
			delete sb.sandbox.config.knobs.activeCurrencyLimit;
		}
	});
});

describe('UpdateCurrencies / UpdateCurrency', () => {
	const idOf = async (iso: string) =>
		(await call('GET', '/org/currencies')).body.currencies.find((c: any) => c.iso_code === iso).id;

	it('updates by id; base-currency rules and read-only ISO code are enforced per item', async () => {
		const eur = await idOf('EUR');
		const res = await call('PUT', '/org/currencies', {
			body: {
				currencies: [
					{ id: eur, exchange_rate: '0.25', format: { decimal_places: '3' } },
					{ id: BASE, is_active: false },
					{ id: BASE, exchange_rate: '2' },
					{ id: eur, iso_code: 'GBP' },
					{ symbol: 'x' },
					{ id: '4876876000000999999', symbol: 'x' },
					{ id: eur, is_base: true },
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.currencies.map((c: any) => [c.code, c.details.api_name])).toEqual([
			['SUCCESS', undefined],
			['NOT_ALLOWED', 'is_active'],
			['NOT_ALLOWED', 'exchange_rate'],
			['NOT_ALLOWED', 'iso_code'],
			['MANDATORY_NOT_FOUND', 'id'],
			['INVALID_DATA', 'id'],
			['NOT_ALLOWED', 'is_base'],
		]);
		expect(res.body.currencies[1].message).toBe('the base currency cannot be deactivated');
		const stored = (await call('GET', `/org/currencies/${eur}`)).body.currencies[0];
		expect(stored).toMatchObject({
			exchange_rate: '0.250000000',
			format: { ...FORMAT, decimal_places: '3' },
		});
	});

	it('UpdateCurrency uses the path id; a second item is refused', async () => {
		const gbp = await idOf('GBP');
		const res = await call('PUT', `/org/currencies/${gbp}`, {
			body: { currencies: [{ is_active: false }, { is_active: true }] },
		});
		expect(res.body.currencies.map((c: any) => c.code)).toEqual(['SUCCESS', 'INVALID_DATA']);
		expect((await call('GET', `/org/currencies/${gbp}`)).body.currencies[0].is_active).toBe(false);
		expect((await call('GET', '/org/currencies/4876876000000999999')).status).toBe(204);
	});
});

describe('UpdateBaseCurrency', () => {
	it('changes details of the base; changing the ISO code re-bases every rate', async () => {
		const details = await call('PUT', '/org/currencies/actions/enable', {
			body: { base_currency: { symbol: 'US$', format: { decimal_places: '0' } } },
		});
		expect(details.status).toBe(200);
		expect(details.body.base_currency).toMatchObject({ code: 'SUCCESS', details: { id: BASE } });
		expect((await call('GET', `/org/currencies/${BASE}`)).body.currencies[0]).toMatchObject({
			symbol: 'US$',
			format: { decimal_places: '0' },
		});

		const unknown = await call('PUT', '/org/currencies/actions/enable', {
			body: { base_currency: { iso_code: 'NZD' } },
		});
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({ code: 'INVALID_DATA', details: { api_name: 'iso_code' } });

		const rebase = await call('PUT', '/org/currencies/actions/enable', {
			body: { base_currency: { iso_code: 'EUR' } },
		});
		expect(rebase.status).toBe(200);
		const list = (await call('GET', '/org/currencies')).body.currencies;
		const by = (iso: string) => list.find((c: any) => c.iso_code === iso);
		expect(list.filter((c: any) => c.is_base).map((c: any) => c.iso_code)).toEqual(['EUR']);
		// EUR was 0.25 per USD: now USD is 4 per EUR and GBP (0.4 per USD) is 1.6 per EUR
		expect(by('EUR').exchange_rate).toBe('1.000000000');
		expect(by('USD')).toMatchObject({
			exchange_rate: '4.000000000',
			is_base: false,
			is_active: true,
		});
		expect(by('GBP').exchange_rate).toBe('1.600000000');
		expect((await call('GET', '/org')).body.org[0]).toMatchObject({
			iso_code: 'EUR',
			currency_symbol: '€',
		});

		const rate = await call('PUT', '/org/currencies/actions/enable', {
			body: { base_currency: { exchange_rate: '2' } },
		});
		expect(rate.body).toMatchObject({
			code: 'NOT_ALLOWED',
			details: { api_name: 'exchange_rate' },
		});
	});
});

describe('edition without multi-currency', () => {
	it('EnableMultipleCurrencies answers 403 FEATURE_NOT_SUPPORTED', async () => {
		const other = await startTestSandbox({ knobs: { multiCurrencySupported: false } });
		try {
			const t = (await grantToken(other.url, { scope: 'CRM.settings.ALL' })).access_token;
			const res = await api(`${other.url}/crm/v2/org/currencies/actions/enable`, t, {
				method: 'POST',
				body: { base_currency: { iso_code: 'USD', name: 'US Dollar', symbol: '$' } },
			});
			expect(res.status).toBe(403);
			expect(res.body.code).toBe('FEATURE_NOT_SUPPORTED');
		} finally {
			await other.close();
		}
	});
});
