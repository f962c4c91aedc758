import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { dropTag, TAG_SCOPES, TAGS } from './shared.ts';
import type { TagDoc } from './shared.ts';

/** DeleteTag: DELETE /crm/{v}/settings/tags/{id} (docs/protocol.md §5.5). */
export const deleteTag = operation(
	'DELETE',
	'/settings/tags/:id',
	{ scopes: TAG_SCOPES },
	(ctx) => {
		const { store } = ctx.sandbox;
		const tag = store.doc<TagDoc>(TAGS, ctx.params.id);
		if (!tag)
			throw new HttpError(
				'TAG_ID_NOT_FOUND',
				{ id: ctx.params.id },
				'the tag id given seems to be invalid',
			);
		return dropTag(ctx, tag, undefined, 'tags deleted successfully');
	},
);
