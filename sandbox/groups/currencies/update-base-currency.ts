import { operation } from '../../router.ts';
import {
	audit,
	baseCurrency,
	baseInput,
	basePath,
	checkCurrency,
	CURRENCIES,
	currencies,
	fail,
	mergeFormat,
	rate,
	requireEnabled,
	syncOrg,
	throwItem,
} from './shared.ts';
import type { CurrencyDoc } from './shared.ts';

/** UpdateBaseCurrency: PUT /crm/{v}/org/currencies/actions/enable (docs/protocol.md §5.9). */
export const updateBaseCurrency = operation(
	'PUT',
	'/org/currencies/actions/enable',
	{ scopes: [['CRM.settings.currencies.UPDATE']] },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		requireEnabled(sandbox);
		const input = baseInput(ctx);
		const checked = checkCurrency(ctx, input, [], basePath);
		if ('error' in checked) throwItem(checked.error);
		const v = (checked as { values: Partial<CurrencyDoc> }).values;
		if (v.exchange_rate !== undefined && Number(v.exchange_rate) !== 1) {
			throwItem(
				fail(
					ctx,
					'NOT_ALLOWED',
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
			const { time, by } = audit(sandbox, ctx);
			let current = baseCurrency(sandbox)!;
			if (v.iso_code !== undefined && v.iso_code !== current.iso_code) {
				const target = currencies(sandbox).find((c) => c.iso_code === v.iso_code);
				if (!target)
					throwItem(
						fail(
							ctx,
							'INVALID_DATA',
							'iso_code',
							basePath,
							'the currency is not added to the organization',
						),
					);
				// re-base: every rate is divided by the new base's rate (units per one base unit)
				const divisor = Number(target!.exchange_rate);
				for (const c of currencies(sandbox)) {
					const isNew = c.id === target!.id;
					store.putDoc(CURRENCIES, c.id, {
						...c,
						exchange_rate: rate(isNew ? 1 : Number(c.exchange_rate) / divisor),
						is_base: isNew,
						is_active: isNew ? true : c.is_active,
						modified_time: time,
						modified_by: by,
					});
				}
				current = store.doc<CurrencyDoc>(CURRENCIES, target!.id)!;
			}
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
			const next: CurrencyDoc = {
				...current,
				...(v.name !== undefined ? { name: v.name } : {}),
				...(v.symbol !== undefined ? { symbol: v.symbol } : {}),
				...(v.prefix_symbol !== undefined ? { prefix_symbol: v.prefix_symbol } : {}),
				format,
				modified_time: time,
				modified_by: by,
			};
			store.putDoc(CURRENCIES, next.id, next);
			syncOrg(sandbox, next);
			return next;
		});
		return {
			body: {
				base_currency: {
					code: 'SUCCESS',
					details: { id: base.id },
					message: 'currency updated',
					status: 'success',
				},
			},
		};
	},
);
