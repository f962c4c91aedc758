// Currencies (docs/protocol.md §5.9): GetCurrencies, AddCurrencies, UpdateCurrencies, GetCurrency,
// UpdateCurrency, EnableMultipleCurrencies, UpdateBaseCurrency.
// State rules: multi-currency starts disabled (org `mc_status` false) with the org's home currency
// as the only, base currency; adding or updating currencies needs it enabled
// (CURRENCIES_NOT_ENABLED); enabling twice answers ALREADY_ENABLED; ISO codes come from a fixed
// table; the base currency stays active with exchange rate 1; changing the base re-bases every rate.
// Knobs: `multiCurrencySupported: false` (edition without the feature), `activeCurrencyLimit`.
// One file per operation; helpers in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { seedOnce } from '../shared.ts';
import { addCurrencies } from './add-currencies.ts';
import { enableMultipleCurrencies } from './enable-multiple-currencies.ts';
import { getCurrencies } from './get-currencies.ts';
import { getCurrency } from './get-currency.ts';
import { seedCurrencies } from './shared.ts';
import { updateBaseCurrency } from './update-base-currency.ts';
import { updateCurrencies } from './update-currencies.ts';
import { updateCurrency } from './update-currency.ts';

export function registerCurrencies(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'currencies', seedCurrencies);
	router.register([
		getCurrencies,
		getCurrency,
		addCurrencies,
		updateCurrencies,
		updateCurrency,
		enableMultipleCurrencies,
		updateBaseCurrency,
	]);
}
