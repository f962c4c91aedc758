import { operation } from '../../router.ts';
import { writeEach } from '../shared.ts';
import { idOf, requireEnabled, SCOPES, updateOne } from './shared.ts';

/** UpdateCurrencies: PUT /crm/{v}/org/currencies (docs/protocol.md §5.9). */
export const updateCurrencies = operation('PUT', '/org/currencies', { scopes: SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	requireEnabled(sandbox);
	return writeEach(ctx, 'currencies', 10, 200, (raw, index) =>
		updateOne(ctx, raw, index, idOf(raw)),
	);
});
