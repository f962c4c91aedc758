import { errorItem } from '../../errors.ts';
import type { ErrorBody } from '../../errors.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { moduleParam } from '../modules.ts';
import { eachItem, resultsReply } from '../shared.ts';
import {
	COLOR_PATTERN,
	findByName,
	itemDetails,
	newTag,
	TAG_SCOPES,
	TAG_WRITE_MAX,
	tagJson,
	tagNameError,
	TAGS,
	tagsOfModule,
} from './shared.ts';

/** CreateTags: POST /crm/{v}/settings/tags?module= (docs/protocol.md §5.5). */
export const createTags = operation('POST', '/settings/tags', { scopes: TAG_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store, config } = sandbox;
	const module = moduleParam(ctx);
	const items = wrapperList(ctx, 'tags', TAG_WRITE_MAX);
	const user = sandbox.user(ctx);
	const results = eachItem(ctx, items, (item, index): Json | ErrorBody => {
		if (!item || typeof item !== 'object' || Array.isArray(item))
			return errorItem('INVALID_DATA', {}, 'invalid data');
		const input = item as Json;
		const nameError = tagNameError(ctx, input.name, index);
		if (nameError) return nameError;
		const name = String(input.name).trim();
		const color =
			input.color_code === undefined || input.color_code === null ? null : String(input.color_code);
		if (color !== null && !COLOR_PATTERN.test(color)) {
			return errorItem(
				'INVALID_DATA',
				itemDetails(ctx, { api_name: 'color_code' }, index),
				'the colour is not supported',
			);
		}
		const duplicate = findByName(sandbox, module.api_name, name);
		if (duplicate)
			return errorItem(
				'DUPLICATE_DATA',
				itemDetails(ctx, { api_name: 'name', id: duplicate.id }, index),
				'duplicate data',
			);
		if (tagsOfModule(sandbox, module.api_name).length >= config.tagsPerModule) {
			return errorItem(
				'LIMIT_EXCEEDED',
				{ limit: config.tagsPerModule, api_name: 'tags' },
				'tag limit for record or module has been exceeded',
			);
		}
		const tag = newTag(sandbox, module, name, color, user);
		store.putDoc(TAGS, tag.id, tag);
		return {
			code: 'SUCCESS',
			details: tagJson(tag),
			message: 'tags created successfully',
			status: 'success',
		};
	});
	return resultsReply('tags', 201, results);
});
