import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { rewriteRecordTags, TAG_SCOPES, TAGS } from './shared.ts';
import type { TagDoc } from './shared.ts';
import { successItem } from '../shared.ts';

/** DeleteTag: DELETE /crm/{v}/settings/tags/{id} (docs/protocol.md §5.5). */
export const deleteTag = operation(
	'DELETE',
	'/settings/tags/:id',
	{ scopes: TAG_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const tag = store.doc<TagDoc>(TAGS, ctx.params.id);
		if (!tag)
			throw new HttpError(
				'TAG_ID_NOT_FOUND',
				{ id: ctx.params.id },
				'the tag id given seems to be invalid',
			);
		store.transaction(() => {
			store.deleteDoc(TAGS, tag.id);
			rewriteRecordTags(
				sandbox,
				tag.module,
				(tags) =>
					tags.some((t) => t.id === tag.id) ? tags.filter((t) => t.id !== tag.id) : undefined,
				ctx.v,
			);
		});
		return {
			body: {
				tags: [successItem(tag.id, 'tags deleted successfully')],
			},
		};
	},
);
