import { operation } from '../../router.ts';
import { idsParam } from '../../wire.ts';
import { eachItem } from '../shared.ts';
import {
	actionReply,
	overWriteParam,
	RECORD_TAG_SCOPES,
	TAG_RECORD_IDS_MAX,
	tagNamesParam,
	tagRecord,
} from './shared.ts';

/** AddTagsToMultipleRecords: POST /crm/{v}/{module}/actions/add_tags?ids= (docs/protocol.md §5.5). */
export const addTagsToMultipleRecords = operation(
	'POST',
	'/:module/actions/add_tags',
	{ scopes: RECORD_TAG_SCOPES },
	(ctx) => {
		const names = tagNamesParam(ctx);
		const ids = idsParam(ctx, 'ids', TAG_RECORD_IDS_MAX, true)!;
		const overWrite = overWriteParam(ctx);
		const results = eachItem(ctx, ids, (id) =>
			tagRecord(ctx, ctx.module!, id, names, 'add', overWrite),
		);
		return actionReply(results);
	},
);
