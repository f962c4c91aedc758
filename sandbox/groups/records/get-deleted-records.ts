import { HttpError } from '../../errors.ts';
import { deletedJson } from '../../records.ts';
import { operation } from '../../router.ts';
import { ifModifiedSince, pagedReply, pageOf, paging } from '../../wire.ts';
import { paramKey, RECORD_SCOPES } from './shared.ts';

/** GetDeletedRecords: GET /crm/{v}/{module}/deleted (docs/protocol.md §5.1). */
export const getDeletedRecords = operation(
	'GET',
	'/:module/deleted',
	{ scopes: RECORD_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const module = ctx.module!;
		const p = paging(ctx);
		const type = ctx.q('type') ?? 'all';
		if (type !== 'all' && type !== 'recycle' && type !== 'permanent')
			throw HttpError.invalidData({ [paramKey(ctx)]: 'type' }, 'invalid type');
		const since = ifModifiedSince(ctx);
		const entries = store.listDeleted(module.api_name, type, since);
		if (since !== undefined && entries.length === 0) return { status: 304 };
		return pagedReply(
			'data',
			p,
			pageOf(entries, p).map((e) => deletedJson(sandbox, e)),
		);
	},
);
