import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { ref, rewriteRecordTags, TAGS } from './shared.ts';
import type { TagDoc } from './shared.ts';
import { successItem } from '../shared.ts';

/** MergeTags: POST /crm/{v}/settings/tags/{id}/actions/merge; tag {id} is removed, its records get `conflict_id` (**assumed** direction) (docs/protocol.md §5.5). */
export const mergeTags = operation(
	'POST',
	'/settings/tags/:id/actions/merge',
	{ scopes: [['CRM.settings.tags.UPDATE']] },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
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
		store.transaction(() => {
			store.deleteDoc(TAGS, source.id);
			rewriteRecordTags(
				sandbox,
				source.module,
				(tags) => {
					if (!tags.some((t) => t.id === source.id)) return undefined;
					const rest = tags.filter((t) => t.id !== source.id);
					return rest.some((t) => t.id === target.id) ? rest : [...rest, ref(target)];
				},
				ctx.v,
			);
		});
		return {
			body: {
				tags: [successItem(target.id, 'tags merged successfully')],
			},
		};
	},
);
