import { operation } from '../../router.ts';
import { idsParam } from '../../wire.ts';
import { eachItem } from '../shared.ts';
import {
	actionReply,
	RECORD_TAG_SCOPES,
	TAG_RECORD_IDS_MAX,
	tagNamesParam,
	tagRecord,
} from './shared.ts';

/** RemoveTagsFromMultipleRecords: POST /crm/{v}/{module}/actions/remove_tags?ids= (docs/protocol.md §5.5). */
export const removeTagsFromMultipleRecords = operation(
	'POST',
	'/:module/actions/remove_tags',
	{ scopes: RECORD_TAG_SCOPES },
	(ctx) => {
		const names = tagNamesParam(ctx);
		const ids = idsParam(ctx, 'ids', TAG_RECORD_IDS_MAX, true)!;
		const overWrite = false;
		const results = eachItem(ctx, ids, (id) =>
			tagRecord(ctx, ctx.module!, id, names, 'remove', overWrite),
		);
		return actionReply(results);
	},
);
