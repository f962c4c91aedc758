// Helpers of the currency operations (docs/protocol.md §5.9): the ISO table, validation, the org's
// multi-currency state, and the seed.
import { DEMO_USERS } from '../../catalogue/org.ts';
import { errorItem, HttpError } from '../../errors.ts';
import type { ErrorBody } from '../../errors.ts';
import type { Json } from '../../store.ts';
import type { Ctx, Sandbox } from '../../types.ts';
import { orgDoc, putOrg } from '../org.ts';
import { successItem } from '../shared.ts';

export const SCOPES = [['CRM.settings.currencies.{ACCESS}']];
export const CURRENCIES = 'currencies';

/** ISO 4217 codes the sandbox knows, with name and symbol. */
const ISO_CURRENCIES: Record<string, { name: string; symbol: string }> = {
	USD: { name: 'US Dollar', symbol: '$' },
	EUR: { name: 'Euro', symbol: '€' },
	GBP: { name: 'Pound Sterling', symbol: '£' },
	JPY: { name: 'Japanese Yen', symbol: '¥' },
	CHF: { name: 'Swiss Franc', symbol: 'CHF' },
	CAD: { name: 'Canadian Dollar', symbol: 'CA$' },
	AUD: { name: 'Australian Dollar', symbol: 'A$' },
	NZD: { name: 'New Zealand Dollar', symbol: 'NZ$' },
	CNY: { name: 'Yuan Renminbi', symbol: '¥' },
	INR: { name: 'Indian Rupee', symbol: '₹' },
	BRL: { name: 'Brazilian Real', symbol: 'R$' },
	MXN: { name: 'Mexican Peso', symbol: 'MX$' },
	SEK: { name: 'Swedish Krona', symbol: 'kr' },
	NOK: { name: 'Norwegian Krone', symbol: 'kr' },
	DKK: { name: 'Danish Krone', symbol: 'kr.' },
	PLN: { name: 'Zloty', symbol: 'zł' },
	CZK: { name: 'Czech Koruna', symbol: 'Kč' },
	HUF: { name: 'Forint', symbol: 'Ft' },
	ZAR: { name: 'Rand', symbol: 'R' },
	SGD: { name: 'Singapore Dollar', symbol: 'S$' },
	HKD: { name: 'Hong Kong Dollar', symbol: 'HK$' },
	KRW: { name: 'Won', symbol: '₩' },
	AED: { name: 'UAE Dirham', symbol: 'AED' },
	SAR: { name: 'Saudi Riyal', symbol: 'SAR' },
	TRY: { name: 'Turkish Lira', symbol: '₺' },
	ILS: { name: 'New Israeli Sheqel', symbol: '₪' },
	THB: { name: 'Baht', symbol: '฿' },
	MYR: { name: 'Malaysian Ringgit', symbol: 'RM' },
	IDR: { name: 'Rupiah', symbol: 'Rp' },
	PHP: { name: 'Philippine Peso', symbol: '₱' },
	ARS: { name: 'Argentine Peso', symbol: 'AR$' },
	CLP: { name: 'Chilean Peso', symbol: 'CLP$' },
	COP: { name: 'Colombian Peso', symbol: 'COL$' },
	EGP: { name: 'Egyptian Pound', symbol: 'E£' },
	NGN: { name: 'Naira', symbol: '₦' },
	KES: { name: 'Kenyan Shilling', symbol: 'KSh' },
};

const THOUSAND_SEPARATORS = ['Period', 'Comma', 'Space'];
const DECIMAL_SEPARATORS = ['Period', 'Comma'];
const DECIMAL_PLACES = ['0', '2', '3'];

export interface CurrencyDoc extends Json {
	id: string;
	name: string;
	iso_code: string;
	symbol: string;
	exchange_rate: string;
	format: { thousand_separator: string; decimal_separator: string; decimal_places: string };
	is_active: boolean;
	is_base: boolean;
	prefix_symbol: boolean;
	created_time: string;
	created_by: { id: string; name: string };
	modified_time: string;
	modified_by: { id: string; name: string };
}

const BASE_CURRENCY_ID = '4876876000000371001';

export const rate = (n: number) => n.toFixed(9);

export function seedCurrencies(sandbox: Sandbox): void {
	const time = sandbox.formatTime();
	const admin = { id: DEMO_USERS[0].id, name: DEMO_USERS[0].full_name };
	const iso = String(orgDoc(sandbox).iso_code ?? 'USD');
	const known = ISO_CURRENCIES[iso] ?? ISO_CURRENCIES.USD;
	const base: CurrencyDoc = {
		id: BASE_CURRENCY_ID,
		name: known.name,
		iso_code: ISO_CURRENCIES[iso] ? iso : 'USD',
		symbol: known.symbol,
		exchange_rate: rate(1),
		format: { thousand_separator: 'Comma', decimal_separator: 'Period', decimal_places: '2' },
		is_active: true,
		is_base: true,
		prefix_symbol: true,
		created_time: time,
		created_by: admin,
		modified_time: time,
		modified_by: admin,
	};
	sandbox.store.putDoc(CURRENCIES, base.id, base);
	putOrg(sandbox, { ...orgDoc(sandbox), mc_status: false });
}

export const currencies = (sandbox: Sandbox) => sandbox.store.docs<CurrencyDoc>(CURRENCIES);
export const baseCurrency = (sandbox: Sandbox) => currencies(sandbox).find((c) => c.is_base);
export const multiCurrencyEnabled = (sandbox: Sandbox) => orgDoc(sandbox).mc_status === true;

export function requireEnabled(sandbox: Sandbox): void {
	if (!multiCurrencyEnabled(sandbox))
		throw new HttpError('CURRENCIES_NOT_ENABLED', {}, 'multi currency is not enabled');
}

function activeLimit(sandbox: Sandbox): number {
	const knob = Number(sandbox.config.knobs.activeCurrencyLimit);
	return Number.isInteger(knob) && knob > 0 ? knob : 25;
}

/** ACTIVE_STATE_LIMIT_EXCEEDED when one more active currency would pass the limit, else undefined. */
export function activeLimitError(ctx: Ctx, path: Path): ErrorBody | undefined {
	const { sandbox } = ctx;
	if (currencies(sandbox).filter((c) => c.is_active).length < activeLimit(sandbox))
		return undefined;
	return fail(
		ctx,
		'ACTIVE_STATE_LIMIT_EXCEEDED',
		'is_active',
		path,
		'the limit of active currencies has been reached',
		{ limit: activeLimit(sandbox) },
	);
}

/** Where an item's error points: `$.currencies[i].key` (list) or `$.base_currency.key` (v2.1 json_path). */
export type Path = (key: string) => string;

export function fail(
	ctx: Ctx,
	code: string,
	apiName: string,
	path: Path,
	message: string,
	extra: Json = {},
): ErrorBody {
	const details: Json = { api_name: apiName, ...extra };
	if (ctx.v === 'v2.1') details.json_path = path(apiName);
	return errorItem(code, details, message);
}

export const isBlank = (v: unknown) =>
	v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Checks the given keys of a currency item and answers the normalised values, or an error item.
 * `required` lists keys that must be present (AddCurrencies: every one of the interface spec).
 */
export function checkCurrency(
	ctx: Ctx,
	input: Json,
	required: string[],
	path: Path,
): { values: Partial<CurrencyDoc> } | { error: ErrorBody } {
	const err = (code: string, key: string, message: string, extra: Json = {}) => ({
		error: fail(ctx, code, key, path, message, extra),
	});
	for (const key of required) {
		if (isBlank(input[key])) return err('MANDATORY_NOT_FOUND', key, 'required field not found');
	}
	const values: Partial<CurrencyDoc> = {};
	if (input.iso_code !== undefined) {
		if (typeof input.iso_code !== 'string' || !ISO_CURRENCIES[input.iso_code])
			return err('INVALID_DATA', 'iso_code', 'invalid ISO code');
		values.iso_code = input.iso_code;
	}
	if (input.name !== undefined) {
		if (typeof input.name !== 'string' || input.name.trim() === '' || input.name.length > 50) {
			return err('INVALID_DATA', 'name', 'invalid currency name', { maximum_length: 50 });
		}
		values.name = input.name.trim();
	}
	if (input.symbol !== undefined) {
		if (typeof input.symbol !== 'string' || input.symbol.trim() === '' || input.symbol.length > 5) {
			return err('INVALID_DATA', 'symbol', 'invalid currency symbol', { maximum_length: 5 });
		}
		values.symbol = input.symbol.trim();
	}
	if (input.exchange_rate !== undefined) {
		const n =
			typeof input.exchange_rate === 'number'
				? input.exchange_rate
				: typeof input.exchange_rate === 'string'
					? Number(input.exchange_rate)
					: NaN;
		if (
			!Number.isFinite(n) ||
			n <= 0 ||
			(typeof input.exchange_rate === 'string' && input.exchange_rate.trim() === '')
		) {
			return err('INVALID_DATA', 'exchange_rate', 'invalid data', { expected_data_type: 'double' });
		}
		values.exchange_rate = rate(n);
	}
	for (const key of ['is_active', 'prefix_symbol', 'is_base'] as const) {
		if (input[key] !== undefined && typeof input[key] !== 'boolean') {
			return err('INVALID_DATA', key, 'invalid data', { expected_data_type: 'boolean' });
		}
	}
	if (typeof input.is_active === 'boolean') values.is_active = input.is_active;
	if (typeof input.prefix_symbol === 'boolean') values.prefix_symbol = input.prefix_symbol;
	if (input.format !== undefined) {
		const f = input.format as Json;
		if (!f || typeof f !== 'object' || Array.isArray(f))
			return err('INVALID_DATA', 'format', 'invalid data', { expected_data_type: 'jsonobject' });
		const formatPath: Path = (key) => path(`format.${key}`);
		const ferr = (code: string, key: string, message: string, extra: Json = {}) => ({
			error: fail(ctx, code, key, formatPath, message, extra),
		});
		const requiredFormat = required.includes('format');
		for (const key of ['thousand_separator', 'decimal_separator', 'decimal_places']) {
			if (requiredFormat && isBlank(f[key]))
				return ferr('MANDATORY_NOT_FOUND', key, 'required field not found');
		}
		const places = f.decimal_places === undefined ? undefined : String(f.decimal_places);
		if (
			f.thousand_separator !== undefined &&
			!THOUSAND_SEPARATORS.includes(String(f.thousand_separator))
		) {
			return ferr('INVALID_DATA', 'thousand_separator', 'invalid data');
		}
		if (
			f.decimal_separator !== undefined &&
			!DECIMAL_SEPARATORS.includes(String(f.decimal_separator))
		) {
			return ferr('INVALID_DATA', 'decimal_separator', 'invalid data');
		}
		if (places !== undefined && !DECIMAL_PLACES.includes(places))
			return ferr('INVALID_DATA', 'decimal_places', 'invalid data');
		values.format = {
			thousand_separator: String(f.thousand_separator ?? 'Comma'),
			decimal_separator: String(f.decimal_separator ?? 'Period'),
			decimal_places: places ?? '2',
		};
		if (f.thousand_separator !== undefined && f.thousand_separator === f.decimal_separator) {
			return ferr(
				'INVALID_DATA',
				'decimal_separator',
				'the thousand and decimal separators must differ',
			);
		}
	}
	return { values };
}

/** Format changes merge with the current format (and must still differ). */
function mergeFormat(
	current: CurrencyDoc['format'],
	input: unknown,
	given: CurrencyDoc['format'] | undefined,
): CurrencyDoc['format'] {
	if (!given) return current;
	const f = input as Json;
	return {
		thousand_separator:
			f.thousand_separator !== undefined ? given.thousand_separator : current.thousand_separator,
		decimal_separator:
			f.decimal_separator !== undefined ? given.decimal_separator : current.decimal_separator,
		decimal_places: f.decimal_places !== undefined ? given.decimal_places : current.decimal_places,
	};
}

const isFormatError = (f: CurrencyDoc['format']) => f.thousand_separator === f.decimal_separator;
const separatorsError = (ctx: Ctx, path: Path) =>
	fail(
		ctx,
		'INVALID_DATA',
		'decimal_separator',
		(key) => path(`format.${key}`),
		'the thousand and decimal separators must differ',
	);

/** `is_base` is changed by UpdateBaseCurrency only. */
export const notBaseWrite = (ctx: Ctx, path: Path) =>
	fail(ctx, 'NOT_ALLOWED', 'is_base', path, 'use UpdateBaseCurrency to change the base currency');

/** Keeps the org's currency fields in step with the base currency. */
function syncOrg(sandbox: Sandbox, base: CurrencyDoc, enabled?: boolean): void {
	const org = orgDoc(sandbox);
	putOrg(sandbox, {
		...org,
		currency: base.iso_code,
		iso_code: base.iso_code,
		currency_symbol: base.symbol,
		...(enabled === undefined ? {} : { mc_status: enabled }),
	});
}

export const audit = (sandbox: Sandbox, ctx: Ctx) => {
	const u = sandbox.user(ctx);
	return { time: sandbox.formatTime(), by: { id: u.id, name: u.name } };
};

/** One item of UpdateCurrencies / UpdateCurrency. */
export function updateOne(ctx: Ctx, raw: unknown, index: number, id: string | undefined): Json {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const path: Path = (key) => `$.currencies[${index}].${key}`;
	if (!raw || typeof raw !== 'object' || Array.isArray(raw))
		return fail(ctx, 'INVALID_DATA', 'currencies', path, 'invalid data');
	const input = raw as Json;
	if (!id) return fail(ctx, 'MANDATORY_NOT_FOUND', 'id', path, 'required field not found');
	const existing = store.doc<CurrencyDoc>(CURRENCIES, id);
	if (!existing)
		return fail(ctx, 'INVALID_DATA', 'id', path, 'the id given seems to be invalid', { id });
	const checked = checkCurrency(ctx, input, [], path);
	if ('error' in checked) return checked.error;
	const v = checked.values;
	if (v.iso_code !== undefined && v.iso_code !== existing.iso_code) {
		return fail(
			ctx,
			'NOT_ALLOWED',
			'iso_code',
			path,
			'the ISO code of a currency cannot be changed',
		);
	}
	if (input.is_base !== undefined && input.is_base !== existing.is_base) {
		return notBaseWrite(ctx, path);
	}
	if (existing.is_base && v.is_active === false) {
		return fail(ctx, 'NOT_ALLOWED', 'is_active', path, 'the base currency cannot be deactivated');
	}
	if (existing.is_base && v.exchange_rate !== undefined && Number(v.exchange_rate) !== 1) {
		return fail(
			ctx,
			'NOT_ALLOWED',
			'exchange_rate',
			path,
			'the exchange rate of the base currency is always 1',
		);
	}
	if (v.is_active === true && !existing.is_active) {
		const limited = activeLimitError(ctx, path);
		if (limited) return limited;
	}
	const format = mergeFormat(existing.format, input.format, v.format);
	if (isFormatError(format)) return separatorsError(ctx, path);
	const { time, by } = audit(sandbox, ctx);
	const next: CurrencyDoc = { ...existing, ...v, format, modified_time: time, modified_by: by };
	store.putDoc(CURRENCIES, id, next);
	if (next.is_base) syncOrg(sandbox, next);
	return successItem(id, 'currency updated');
}

export function idOf(raw: unknown): string | undefined {
	const id = raw && typeof raw === 'object' ? (raw as Json).id : undefined;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** `base_currency` of the body as an object; request-level errors (the response holds one item). */
function baseInput(ctx: Ctx): Json {
	const value = ctx.json().base_currency;
	if (value === undefined || value === null) throw HttpError.mandatory('base_currency');
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw HttpError.invalidData({ api_name: 'base_currency', expected_data_type: 'jsonobject' });
	}
	return value as Json;
}
export const basePath: Path = (key) => `$.base_currency.${key}`;
/** An item error of the base-currency operations as the request's error. */
export function throwItem(error: ErrorBody): never {
	throw new HttpError(error.code, error.details, error.message);
}

/** What differs between the two base-currency writes (EnableMultipleCurrencies, UpdateBaseCurrency). */
interface BaseCurrencyWrite {
	/** refusals before the body is read */
	before(sandbox: Sandbox): void;
	/** refusals after the body is read, before it is checked */
	afterInput?(sandbox: Sandbox): void;
	/** keys the item must carry */
	required: string[];
	/** the code when an exchange rate other than 1 is given */
	rateCode: string;
	/** the base currency to change (UpdateBaseCurrency may re-base first) */
	current(ctx: Ctx, v: Partial<CurrencyDoc>, at: ReturnType<typeof audit>): CurrencyDoc;
	/** the changed fields of the base currency */
	changes(v: Partial<CurrencyDoc>): Partial<CurrencyDoc>;
	/** the org's `mc_status` afterwards (undefined: unchanged) */
	enables?: boolean;
	message: string;
}

/** The body of a base-currency write: checks, the change in a transaction, the one-item answer. */
export function writeBaseCurrency(ctx: Ctx, w: BaseCurrencyWrite) {
	const { sandbox } = ctx;
	const { store } = sandbox;
	w.before(sandbox);
	const input = baseInput(ctx);
	w.afterInput?.(sandbox);
	const checked = checkCurrency(ctx, input, w.required, basePath);
	if ('error' in checked) throwItem(checked.error);
	const v = (checked as { values: Partial<CurrencyDoc> }).values;
	if (v.exchange_rate !== undefined && Number(v.exchange_rate) !== 1) {
		throwItem(
			fail(
				ctx,
				w.rateCode,
				'exchange_rate',
				basePath,
				'the exchange rate of the base currency is always 1',
			),
		);
	}
	if (v.is_active === false)
		throwItem(
			fail(ctx, 'NOT_ALLOWED', 'is_active', basePath, 'the base currency cannot be deactivated'),
		);
	const base = store.transaction(() => {
		const at = audit(sandbox, ctx);
		const current = w.current(ctx, v, at);
		const format = mergeFormat(current.format, input.format, v.format);
		if (isFormatError(format)) throwItem(separatorsError(ctx, basePath));
		const next: CurrencyDoc = {
			...current,
			...w.changes(v),
			format,
			modified_time: at.time,
			modified_by: at.by,
		};
		store.putDoc(CURRENCIES, next.id, next);
		syncOrg(sandbox, next, w.enables);
		return next;
	});
	return {
		body: {
			base_currency: successItem(base.id, w.message),
		},
	};
}
