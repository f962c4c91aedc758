import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { moduleParam } from '../modules.ts';
import { recordCountOf, TAG_SCOPES, TAGS } from './shared.ts';
import type { TagDoc } from './shared.ts';

/** GetRecordCountForTag: GET /crm/{v}/settings/tags/{id}/actions/records_count; `count` is a JSON string (docs/protocol.md §5.5). */
export const getRecordCountForTag = operation(
	'GET',
	'/settings/tags/:id/actions/records_count',
	{ scopes: TAG_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const module = moduleParam(ctx);
		const tag = store.doc<TagDoc>(TAGS, ctx.params.id);
		if (!tag || tag.module !== module.api_name) {
			throw new HttpError(
				'TAG_ID_NOT_FOUND',
				{ id: ctx.params.id },
				'the tag id given seems to be invalid',
			);
		}
		return { body: { count: String(recordCountOf(sandbox, tag)) } };
	},
);
