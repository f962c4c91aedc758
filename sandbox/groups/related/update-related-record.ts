import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { RELATED_SCOPES, RELATED_WRITE_MAX, addressed, linkOne, requireParent } from './shared.ts';

/** UpdateRelatedRecord (+UsingExternalId): PUT /crm/{v}/{module}/{recordId}/{relatedList}/{relatedId} (docs/protocol.md §5.2). */
export const updateRelatedRecord = operation(
	'PUT',
	'/:module/:recordId/:relatedList/:relatedId',
	{ scopes: RELATED_SCOPES },
	(ctx) => {
		const a = addressed(ctx);
		const items = wrapperList(ctx, 'data', RELATED_WRITE_MAX);
		const parent = requireParent(a);
		const results = eachItem(ctx, items, (item, index) =>
			linkOne(ctx, a, parent, item, index, ctx.params.relatedId),
		);
		return resultsReply('data', 200, results);
	},
);
