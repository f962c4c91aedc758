import { operation } from '../../router.ts';
import { ifModifiedSince } from '../../wire.ts';
import { RELATED_SCOPES, addressed, findRelated, isLinked, relatedOf } from './shared.ts';

/** GetRelatedRecord (+UsingExternalID): GET /crm/{v}/{module}/{recordId}/{relatedList}/{relatedId} (docs/protocol.md §5.2). */
export const getRelatedRecord = operation(
	'GET',
	'/:module/:recordId/:relatedList/:relatedId',
	{ scopes: RELATED_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const a = addressed(ctx);
		if (!a.parent) return { status: 204 };
		const related = findRelated(ctx, a, ctx.params.relatedId);
		if (!related || !isLinked(sandbox, a, a.parent, related)) return { status: 204 };
		const match = relatedOf(sandbox, a.module, a.parent, a.list).find(
			(r) => r.record.id === related.id,
		);
		if (!match) return { status: 204 };
		const since = ifModifiedSince(ctx);
		if (since !== undefined && match.changed <= since) return { status: 304 };
		return { body: { data: [match.record] } };
	},
);
