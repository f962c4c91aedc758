import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import {
	audit,
	baseCurrency,
	baseInput,
	basePath,
	checkCurrency,
	CURRENCIES,
	fail,
	mergeFormat,
	multiCurrencyEnabled,
	rate,
	syncOrg,
	throwItem,
} from './shared.ts';
import type { CurrencyDoc } from './shared.ts';

/** EnableMultipleCurrencies: POST /crm/{v}/org/currencies/actions/enable (docs/protocol.md §5.9). */
export const enableMultipleCurrencies = operation(
	'POST',
	'/org/currencies/actions/enable',
	{ scopes: [['CRM.settings.currencies.CREATE']] },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		if (sandbox.config.knobs.multiCurrencySupported === false) {
			throw new HttpError(
				'FEATURE_NOT_SUPPORTED',
				{},
				'multi-currency is not available in this edition',
			);
		}
		const input = baseInput(ctx);
		if (multiCurrencyEnabled(sandbox))
			throw new HttpError('ALREADY_ENABLED', {}, 'multi-currency already enabled');
		const checked = checkCurrency(ctx, input, ['name', 'iso_code', 'symbol'], basePath);
		if ('error' in checked) throwItem(checked.error);
		const v = (checked as { values: Partial<CurrencyDoc> }).values;
		if (v.exchange_rate !== undefined && Number(v.exchange_rate) !== 1) {
			throwItem(
				fail(
					ctx,
					'INVALID_DATA',
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
			const current = baseCurrency(sandbox)!;
			const { time, by } = audit(sandbox, ctx);
			const format = mergeFormat(current.format, input.format, v.format);
			if (format.thousand_separator === format.decimal_separator) {
				throwItem(
					fail(
						ctx,
						'INVALID_DATA',
						'decimal_separator',
						(key) => basePath(`format.${key}`),
						'the thousand and decimal separators must differ',
					),
				);
			}
			// before enabling, the home currency is the only currency: it becomes the given one
			const next: CurrencyDoc = {
				...current,
				...v,
				format,
				exchange_rate: rate(1),
				is_active: true,
				is_base: true,
				modified_time: time,
				modified_by: by,
			};
			store.putDoc(CURRENCIES, next.id, next);
			syncOrg(sandbox, next, true);
			return next;
		});
		return {
			body: {
				base_currency: {
					code: 'SUCCESS',
					details: { id: base.id },
					message: 'multi-currency enabled with the given currency as base',
					status: 'success',
				},
			},
		};
	},
);
