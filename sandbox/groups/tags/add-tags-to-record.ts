import { operation } from '../../router.ts';
import {
	actionReply,
	overWriteParam,
	RECORD_TAG_SCOPES,
	tagNamesParam,
	tagRecord,
} from './shared.ts';

/** AddTagsToRecord: POST /crm/{v}/{module}/{id}/actions/add_tags (docs/protocol.md §5.5). */
export const addTagsToRecord = operation(
	'POST',
	'/:module/:recordId/actions/add_tags',
	{ scopes: RECORD_TAG_SCOPES },
	(ctx) => {
		const names = tagNamesParam(ctx);
		const overWrite = overWriteParam(ctx);
		const result = ctx.sandbox.store.transaction(() =>
			tagRecord(ctx, ctx.module!, ctx.params.recordId, names, 'add', overWrite),
		);
		return actionReply([result]);
	},
);
