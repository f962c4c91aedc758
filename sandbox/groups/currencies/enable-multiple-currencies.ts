import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { baseCurrency, multiCurrencyEnabled, rate, writeBaseCurrency } from './shared.ts';

/** EnableMultipleCurrencies: POST /crm/{v}/org/currencies/actions/enable (docs/protocol.md §5.9). */
export const enableMultipleCurrencies = operation(
	'POST',
	'/org/currencies/actions/enable',
	{ scopes: [['CRM.settings.currencies.CREATE']] },
	(ctx) =>
		writeBaseCurrency(ctx, {
			before(sandbox) {
				if (sandbox.config.knobs.multiCurrencySupported === false) {
					throw new HttpError(
						'FEATURE_NOT_SUPPORTED',
						{},
						'multi-currency is not available in this edition',
					);
				}
			},
			afterInput(sandbox) {
				if (multiCurrencyEnabled(sandbox))
					throw new HttpError('ALREADY_ENABLED', {}, 'multi-currency already enabled');
			},
			required: ['name', 'iso_code', 'symbol'],
			rateCode: 'INVALID_DATA',
			current: (c) => baseCurrency(c.sandbox)!,
			// before enabling, the home currency is the only currency: it becomes the given one
			changes: (v) => ({ ...v, exchange_rate: rate(1), is_active: true, is_base: true }),
			enables: true,
			message: 'multi-currency enabled with the given currency as base',
		}),
);
