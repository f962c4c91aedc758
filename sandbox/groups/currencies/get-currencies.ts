import { operation } from '../../router.ts';
import { listReply } from '../../wire.ts';
import { currencies, SCOPES } from './shared.ts';

/** GetCurrencies: GET /crm/{v}/org/currencies (docs/protocol.md §5.9). */
export const getCurrencies = operation('GET', '/org/currencies', { scopes: SCOPES }, (ctx) =>
	listReply('currencies', currencies(ctx.sandbox)),
);
