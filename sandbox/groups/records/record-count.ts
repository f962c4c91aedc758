import { searchPredicate } from '../../records.ts';
import { operation } from '../../router.ts';
import { criteriaHttp, RECORD_SCOPES, searchQuery, visible } from './shared.ts';

/** RecordCount: GET /crm/{v}/{module}/actions/count (v2.1 only) (docs/protocol.md §5.1). */
export const recordCount = operation(
	'GET',
	'/:module/actions/count',
	{ scopes: RECORD_SCOPES, v21Only: true },
	(ctx) => {
		const { store } = ctx.sandbox;
		const module = ctx.module!;
		const predicate = criteriaHttp(() => searchPredicate(module, searchQuery(ctx)));
		let count = 0;
		for (const record of store.iterateRecords(module.api_name)) {
			if (visible(ctx, record) && (!predicate || predicate(record))) count++;
		}
		return { body: { count } };
	},
);
