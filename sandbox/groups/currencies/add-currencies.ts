import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply, successItem } from '../shared.ts';
import {
	activeLimitError,
	audit,
	checkCurrency,
	CURRENCIES,
	currencies,
	fail,
	notBaseWrite,
	requireEnabled,
	SCOPES,
} from './shared.ts';
import type { CurrencyDoc, Path } from './shared.ts';

/** AddCurrencies: POST /crm/{v}/org/currencies (docs/protocol.md §5.9). */
export const addCurrencies = operation('POST', '/org/currencies', { scopes: SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	requireEnabled(sandbox);
	const items = wrapperList(ctx, 'currencies', 10);
	const results = eachItem(ctx, items, (raw, index) => {
		const path: Path = (key) => `$.currencies[${index}].${key}`;
		if (!raw || typeof raw !== 'object' || Array.isArray(raw))
			return fail(ctx, 'INVALID_DATA', 'currencies', path, 'invalid data');
		const input = raw as Json;
		const checked = checkCurrency(
			ctx,
			input,
			['name', 'iso_code', 'symbol', 'exchange_rate', 'format'],
			path,
		);
		if ('error' in checked) return checked.error;
		const v = checked.values;
		if (input.is_base === true) return notBaseWrite(ctx, path);
		if (currencies(sandbox).some((c) => c.iso_code === v.iso_code)) {
			return fail(ctx, 'DUPLICATE_DATA', 'iso_code', path, 'the currency already exists');
		}
		const active = v.is_active ?? true;
		const limited = active ? activeLimitError(ctx, path) : undefined;
		if (limited) return limited;
		const { time, by } = audit(sandbox, ctx);
		const doc: CurrencyDoc = {
			id: store.nextId(),
			name: v.name!,
			iso_code: v.iso_code!,
			symbol: v.symbol!,
			exchange_rate: v.exchange_rate!,
			format: v.format!,
			is_active: active,
			is_base: false,
			prefix_symbol: v.prefix_symbol ?? true,
			created_time: time,
			created_by: by,
			modified_time: time,
			modified_by: by,
		};
		store.putDoc(CURRENCIES, doc.id, doc);
		return successItem(doc.id, 'currency created');
	});
	return resultsReply('currencies', 201, results);
});
