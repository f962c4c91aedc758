import { operation } from '../../router.ts';
import {
	baseCurrency,
	basePath,
	CURRENCIES,
	currencies,
	fail,
	rate,
	requireEnabled,
	throwItem,
	writeBaseCurrency,
} from './shared.ts';
import type { CurrencyDoc } from './shared.ts';

/** UpdateBaseCurrency: PUT /crm/{v}/org/currencies/actions/enable (docs/protocol.md §5.9). */
export const updateBaseCurrency = operation(
	'PUT',
	'/org/currencies/actions/enable',
	{ scopes: [['CRM.settings.currencies.UPDATE']] },
	(ctx) =>
		writeBaseCurrency(ctx, {
			before: requireEnabled,
			required: [],
			rateCode: 'NOT_ALLOWED',
			current(c, v, { time, by }) {
				const { sandbox } = c;
				const { store } = sandbox;
				const current = baseCurrency(sandbox)!;
				if (v.iso_code === undefined || v.iso_code === current.iso_code) return current;
				const target = currencies(sandbox).find((cur) => cur.iso_code === v.iso_code);
				if (!target)
					throwItem(
						fail(
							c,
							'INVALID_DATA',
							'iso_code',
							basePath,
							'the currency is not added to the organization',
						),
					);
				// re-base: every rate is divided by the new base's rate (units per one base unit)
				const divisor = Number(target.exchange_rate);
				for (const cur of currencies(sandbox)) {
					const isNew = cur.id === target.id;
					store.putDoc(CURRENCIES, cur.id, {
						...cur,
						exchange_rate: rate(isNew ? 1 : Number(cur.exchange_rate) / divisor),
						is_base: isNew,
						is_active: isNew ? true : cur.is_active,
						modified_time: time,
						modified_by: by,
					});
				}
				return store.doc<CurrencyDoc>(CURRENCIES, target.id)!;
			},
			changes: (v) => ({
				...(v.name !== undefined ? { name: v.name } : {}),
				...(v.symbol !== undefined ? { symbol: v.symbol } : {}),
				...(v.prefix_symbol !== undefined ? { prefix_symbol: v.prefix_symbol } : {}),
			}),
			message: 'currency updated',
		}),
);
