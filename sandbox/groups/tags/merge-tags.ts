import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { dropTag, TAGS } from './shared.ts';
import type { TagDoc } from './shared.ts';

/** MergeTags: POST /crm/{v}/settings/tags/{id}/actions/merge; tag {id} is removed, its records get `conflict_id` (**assumed** direction) (docs/protocol.md §5.5). */
export const mergeTags = operation(
	'POST',
	'/settings/tags/:id/actions/merge',
	{ scopes: [['CRM.settings.tags.UPDATE']] },
	(ctx) => {
		const { store } = ctx.sandbox;
		const [item] = wrapperList(ctx, 'tags', 1) as Json[];
		const source = store.doc<TagDoc>(TAGS, ctx.params.id);
		if (!source)
			throw new HttpError(
				'TAG_ID_NOT_FOUND',
				{ id: ctx.params.id },
				'the tag id given seems to be invalid',
			);
		const conflictId = item && typeof item === 'object' ? item.conflict_id : undefined;
		if (conflictId === undefined || conflictId === null || conflictId === '') {
			throw HttpError.mandatory('conflict_id');
		}
		const target = store.doc<TagDoc>(TAGS, String(conflictId));
		if (!target || target.module !== source.module || target.id === source.id) {
			throw new HttpError(
				'TAG_ID_NOT_FOUND',
				{ api_name: 'conflict_id', id: String(conflictId) },
				'the tag id given seems to be invalid',
			);
		}
		return dropTag(ctx, source, target, 'tags merged successfully');
	},
);
