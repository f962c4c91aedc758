import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { paramKey } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { DELINK_IDS_MAX, RELATED_SCOPES, addressed, delinkOne, requireParent } from './shared.ts';

/** DelinkRecords / DeleteRelatedRecordsUsingExternalID: DELETE /crm/{v}/{module}/{recordId}/{relatedList} (docs/protocol.md §5.2). */
export const delinkRecords = operation(
	'DELETE',
	'/:module/:recordId/:relatedList',
	{ scopes: RELATED_SCOPES },
	(ctx) => {
		const a = addressed(ctx);
		const ids = ctx.list('ids');
		if (ids.length === 0) throw HttpError.requiredParam('ids', ctx.v);
		if (ids.length > DELINK_IDS_MAX) throw HttpError.limit(DELINK_IDS_MAX, 'ids');
		if (!a.relatedField) {
			const bad = ids.find((id) => !/^\d+$/.test(id));
			if (bad) throw HttpError.invalidData({ [paramKey(ctx)]: 'ids', id: bad });
		}
		const parent = requireParent(a);
		return resultsReply(
			'data',
			200,
			eachItem(ctx, ids, (id) => delinkOne(ctx, a, parent, id)),
		);
	},
);
