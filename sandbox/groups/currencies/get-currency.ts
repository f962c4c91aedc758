import { operation } from '../../router.ts';
import { CURRENCIES, SCOPES } from './shared.ts';
import type { CurrencyDoc } from './shared.ts';

/** GetCurrency: GET /crm/{v}/org/currencies/{id} (docs/protocol.md §5.9). */
export const getCurrency = operation('GET', '/org/currencies/:id', { scopes: SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const currency = store.doc<CurrencyDoc>(CURRENCIES, ctx.params.id);
	return currency ? { body: { currencies: [currency] } } : { status: 204 };
});
