import { operation } from '../../router.ts';
import { actionReply, RECORD_TAG_SCOPES, tagNamesParam, tagRecord } from './shared.ts';

/** RemoveTagsFromRecord: POST /crm/{v}/{module}/{id}/actions/remove_tags (docs/protocol.md §5.5). */
export const removeTagsFromRecord = operation(
	'POST',
	'/:module/:recordId/actions/remove_tags',
	{ scopes: RECORD_TAG_SCOPES },
	(ctx) => {
		const names = tagNamesParam(ctx);
		const overWrite = false;
		const result = ctx.sandbox.store.transaction(() =>
			tagRecord(ctx, ctx.module!, ctx.params.recordId, names, 'remove', overWrite),
		);
		return actionReply([result]);
	},
);
