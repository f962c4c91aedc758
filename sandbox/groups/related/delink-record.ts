import { operation } from '../../router.ts';
import { resultsReply } from '../shared.ts';
import { RELATED_SCOPES, addressed, delinkOne, requireParent } from './shared.ts';

/** DelinkRecord / DeleteRelatedRecordUsingExternalId: DELETE /crm/{v}/{module}/{recordId}/{relatedList}/{relatedId} (docs/protocol.md §5.2). */
export const delinkRecord = operation(
	'DELETE',
	'/:module/:recordId/:relatedList/:relatedId',
	{ scopes: RELATED_SCOPES },
	(ctx) => {
		const { store } = ctx.sandbox;
		const a = addressed(ctx);
		const parent = requireParent(a);
		const result = store.transaction(() => delinkOne(ctx, a, parent, ctx.params.relatedId));
		return resultsReply('data', 200, [result]);
	},
);
