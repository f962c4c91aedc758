import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { RELATED_SCOPES, RELATED_WRITE_MAX, addressed, linkOne, requireParent } from './shared.ts';

/** UpdateRelatedRecords (+UsingExternalId): PUT /crm/{v}/{module}/{recordId}/{relatedList} (docs/protocol.md §5.2). */
export const updateRelatedRecords = operation(
	'PUT',
	'/:module/:recordId/:relatedList',
	{ scopes: RELATED_SCOPES },
	(ctx) => {
		const a = addressed(ctx);
		const items = wrapperList(ctx, 'data', RELATED_WRITE_MAX);
		const parent = requireParent(a);
		return resultsReply(
			'data',
			200,
			eachItem(ctx, items, (item, index) => linkOne(ctx, a, parent, item, index)),
		);
	},
);
