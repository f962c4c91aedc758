import { HttpError } from '../../errors.ts';
import { pickFields, searchPredicate } from '../../records.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { pagedReply, pageOf, paging } from '../../wire.ts';
import { criteriaHttp, fieldsParam, RECORD_SCOPES, searchQuery, visible } from './shared.ts';

/** SearchRecords: GET /crm/{v}/{module}/search (§3.11) (docs/protocol.md §5.1). */
export const searchRecords = operation(
	'GET',
	'/:module/search',
	{ scopes: RECORD_SCOPES },
	(ctx) => {
		const { store } = ctx.sandbox;
		const module = ctx.module!;
		const p = paging(ctx);
		const fields = fieldsParam(ctx);
		const predicate = criteriaHttp(() => searchPredicate(module, searchQuery(ctx)));
		if (!predicate) throw HttpError.requiredParam('criteria', ctx.v);
		const matches: Json[] = [];
		for (const record of store.iterateRecords(module.api_name)) {
			if (visible(ctx, record) && predicate(record)) matches.push(record);
		}
		return pagedReply(
			'data',
			p,
			pageOf(matches, p).map((r) => pickFields(r, fields)),
		);
	},
);
