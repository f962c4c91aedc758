import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { fail, requireEnabled, SCOPES, updateOne } from './shared.ts';

/** UpdateCurrency: PUT /crm/{v}/org/currencies/{id} (docs/protocol.md §5.9). */
export const updateCurrency = operation('PUT', '/org/currencies/:id', { scopes: SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	requireEnabled(sandbox);
	const items = wrapperList(ctx, 'currencies', 10);
	// the path names one currency: the first item updates it, further items are refused
	const results = eachItem(ctx, items, (raw, index) =>
		index === 0
			? updateOne(ctx, raw, 0, ctx.params.id)
			: fail(
					ctx,
					'INVALID_DATA',
					'currencies',
					(key) => `$.currencies[${index}].${key}`,
					'only one currency can be updated by id',
				),
	);
	return resultsReply('currencies', 200, results);
});
