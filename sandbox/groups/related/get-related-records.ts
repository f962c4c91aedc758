import { operation } from '../../router.ts';
import { childPage, paging } from '../../wire.ts';
import { RELATED_SCOPES, addressed, relatedOf } from './shared.ts';

/** GetRelatedRecords (+UsingExternalID): GET /crm/{v}/{module}/{recordId}/{relatedList} (docs/protocol.md §5.2). */
export const getRelatedRecords = operation(
	'GET',
	'/:module/:recordId/:relatedList',
	{ scopes: RELATED_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const a = addressed(ctx);
		const p = paging(ctx);
		if (!a.parent) return { status: 204 };
		const all = relatedOf(sandbox, a.module, a.parent, a.list);
		return childPage(ctx, p, 'data', all, { changed: (r) => r.changed, map: (r) => r.record });
	},
);
