 
// Tags (docs/protocol.md §5.5): GetTags, CreateTags, UpdateTags, UpdateTag, DeleteTag, MergeTags,
// GetRecordCountForTag, AddTagsToRecord, RemoveTagsFromRecord, AddTagsToMultipleRecords,
// RemoveTagsFromMultipleRecords.
//
// Tags are documents of the `tags` collection, one module each; a record carries its tags in its
// `Tag` list as `{id, name, color_code}`, changed through the store so change events fire. Limits of
// §6: name ≤25 characters without special characters, `config.tagsPerRecord` per record and
// `config.tagsPerModule` per module (LIMIT_EXCEEDED).
import { HttpError, errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import { writeStatus } from '../records.ts';
import type { Ctx, Router } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';
import { seedOnce } from '../seed/seed.ts';
import type { ModuleDef } from '../seed/modules.ts';
import type { Json, StoredRecord, UserRef } from '../store.ts';
import { parseDateTime } from '../time.ts';
import { idsParam, listReply, wrapperList } from '../wire.ts';
import { moduleParam } from './modules.ts';

/** Tag settings: CRM.settings.ALL or CRM.settings.tags.{ACCESS} (§2.3). */
const TAG_SCOPES = [['CRM.settings.tags.{ACCESS}']];
/** Tags on records: CRM.modules.ALL or CRM.modules.{mod}.{ALL|WRITE|UPDATE} (§2.3, **assumed**). */
const RECORD_TAG_SCOPES = [['CRM.modules.{mod}.UPDATE']];

const TAGS = 'tags';
export const TAG_NAME_MAX = 25;
/** CreateTags / UpdateTags bound (**assumed** 1..100, §5.5). */
export const TAG_WRITE_MAX = 100;
/** `ids` of the multiple-record tag actions (**assumed**, as DeleteRecords). */
export const TAG_RECORD_IDS_MAX = 100;
/** Letters, digits, spaces, `_` and `-`; anything else is a special character. */
export const TAG_NAME_PATTERN = /^[\p{L}\p{N} _-]+$/u;
const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

export interface TagDoc {
	id: string;
	name: string;
	color_code: string | null;
	module: string;
	created_time: string;
	modified_time: string;
	created_by: { id: string; name: string };
	modified_by: { id: string; name: string };
}

type TagRef = { id: string; name: string; color_code: string | null };

const ref = (tag: TagDoc): TagRef => ({ id: tag.id, name: tag.name, color_code: tag.color_code });

function tagJson(tag: TagDoc): Json {
	const json: Json = { ...tag };
	delete json.module;
	return json;
}

export function tagsOfModule(sandbox: Sandbox, module: string): TagDoc[] {
	return sandbox.store.docs<TagDoc>(TAGS).filter((t) => t.module === module);
}

function findByName(sandbox: Sandbox, module: string, name: string): TagDoc | undefined {
	const lower = name.toLowerCase();
	return tagsOfModule(sandbox, module).find((t) => t.name.toLowerCase() === lower);
}

/** Why a tag name is refused, or undefined (§6). */
export function tagNameProblem(name: unknown): { details: Json; message: string } | undefined {
	if (typeof name !== 'string' || name.trim() === '') return { details: { api_name: 'name' }, message: 'required field not found' };
	if (name.trim().length > TAG_NAME_MAX) {
		return { details: { api_name: 'name', maximum_length: TAG_NAME_MAX }, message: `tag name can contain only ${TAG_NAME_MAX} characters` };
	}
	if (!TAG_NAME_PATTERN.test(name.trim())) return { details: { api_name: 'name' }, message: 'special characters found in the given name' };
	return undefined;
}

function byUser(user: UserRef): { id: string; name: string } {
	return { id: user.id, name: user.name };
}

function itemDetails(ctx: Ctx, details: Json, index: number): Json {
	if (ctx.v === 'v2.1' && typeof details.api_name === 'string') return { ...details, json_path: `$.tags[${index}].${details.api_name}` };
	return details;
}

/** Rewrites the `Tag` list of every record of a module that carries one of the given tags. */
function rewriteRecordTags(sandbox: Sandbox, module: string, touches: (tags: TagRef[]) => TagRef[] | undefined, v: string): number {
	const { store } = sandbox;
	const updates: Array<{ record: StoredRecord; tags: TagRef[] }> = [];
	for (const record of store.iterateRecords(module)) {
		const next = touches((record.Tag as TagRef[] | undefined) ?? []);
		if (next) updates.push({ record, tags: next });
	}
	const now = sandbox.now();
	for (const { record, tags } of updates) {
		store.replaceRecord(module, { ...record, Tag: tags, Modified_Time: sandbox.formatTime(now) }, now, { Tag: tags }, { v });
	}
	return updates.length;
}

function recordCountOf(sandbox: Sandbox, tag: TagDoc): number {
	let count = 0;
	for (const record of sandbox.store.iterateRecords(tag.module)) {
		if (((record.Tag as TagRef[] | undefined) ?? []).some((t) => t.id === tag.id)) count++;
	}
	return count;
}

/** Validated `tag_names` of a record action: names must be valid; request-level 400 otherwise. */
function tagNamesParam(ctx: Ctx): string[] {
	const names = ctx.list('tag_names');
	if (names.length === 0) throw HttpError.requiredParam('tag_names', ctx.v);
	for (const name of names) {
		const problem = tagNameProblem(name);
		if (problem) throw HttpError.invalidData({ ...problem.details, [ctx.v === 'v2.1' ? 'param_name' : 'param']: 'tag_names', name }, problem.message);
	}
	const unique = new Map<string, string>();
	for (const name of names) if (!unique.has(name.toLowerCase())) unique.set(name.toLowerCase(), name);
	return [...unique.values()];
}

function overWriteParam(ctx: Ctx): boolean {
	const value = ctx.q('over_write');
	if (value === undefined) return false;
	if (value !== 'true' && value !== 'false') throw HttpError.invalidData({ [ctx.v === 'v2.1' ? 'param_name' : 'param']: 'over_write' });
	return value === 'true';
}

/** Response of the record tag actions (§5.5): per-record items plus the counters. */
function actionReply(results: Array<Json | ErrorBody>): { status: number; body: Json } {
	const ok = results.filter((r) => r.status === 'success').length;
	return {
		status: writeStatus(results, 200),
		body: { data: results, locked_count: 0, success_count: String(ok), wf_scheduler: false },
	};
}

export function registerTags(router: Router, sandbox: Sandbox): void {
	const { store, config } = sandbox;
	const settingsOpts = { scopes: TAG_SCOPES };
	const recordOpts = { scopes: RECORD_TAG_SCOPES };

	seedOnce(sandbox, 'tags', seedTags);

	const newTag = (module: ModuleDef, name: string, color: string | null, user: UserRef): TagDoc => {
		const time = sandbox.formatTime();
		return {
			id: store.nextId(),
			name,
			color_code: color,
			module: module.api_name,
			created_time: time,
			modified_time: time,
			created_by: byUser(user),
			modified_by: byUser(user),
		};
	};

	/** Creates the unknown names (module limit applies); answers the tags or the limit error. */
	const ensureTags = (module: ModuleDef, names: string[], user: UserRef): TagDoc[] | ErrorBody => {
		const existing = tagsOfModule(sandbox, module.api_name);
		const out: TagDoc[] = [];
		const missing: string[] = [];
		for (const name of names) {
			const tag = existing.find((t) => t.name.toLowerCase() === name.toLowerCase());
			if (tag) out.push(tag);
			else missing.push(name);
		}
		if (existing.length + missing.length > config.tagsPerModule) {
			return errorItem('LIMIT_EXCEEDED', { limit: config.tagsPerModule, api_name: 'tag_names' }, 'tag limit for record or module has been exceeded');
		}
		for (const name of missing) {
			const tag = newTag(module, name, null, user);
			store.putDoc(TAGS, tag.id, tag);
			out.push(tag);
		}
		return out;
	};

	const tagRecord = (ctx: Ctx, module: ModuleDef, id: string, names: string[], mode: 'add' | 'remove', overWrite: boolean): Json | ErrorBody => {
		const record = store.getRecord(module.api_name, id);
		if (!record) return errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
		const current = (record.Tag as TagRef[] | undefined) ?? [];
		let next: TagRef[];
		if (mode === 'add') {
			const base = overWrite ? [] : current;
			const wanted = names.filter((n) => !base.some((t) => t.name.toLowerCase() === n.toLowerCase()));
			if (base.length + wanted.length > config.tagsPerRecord) {
				return errorItem('LIMIT_EXCEEDED', { limit: config.tagsPerRecord, id }, 'tag limit for record or module has been exceeded');
			}
			const tags = ensureTags(module, wanted, sandbox.user(ctx));
			if (!Array.isArray(tags)) return tags;
			next = [...base, ...tags.map(ref)];
		} else {
			const lower = new Set(names.map((n) => n.toLowerCase()));
			next = current.filter((t) => !lower.has(t.name.toLowerCase()));
		}
		if (JSON.stringify(next) !== JSON.stringify(current)) {
			const now = sandbox.now();
			const user = sandbox.user(ctx);
			store.replaceRecord(
				module.api_name,
				{ ...record, Tag: next, Modified_Time: sandbox.formatTime(now), Modified_By: { id: user.id, name: user.name, email: user.email } },
				now,
				{ Tag: next },
				{ v: ctx.v },
			);
		}
		return {
			code: 'SUCCESS',
			details: { id, tags: next.map((t) => t.name) },
			message: 'tags updated successfully',
			status: 'success',
		};
	};

	// GetTags
	router.get(
		'/settings/tags',
		(ctx) => {
			const module = moduleParam(ctx);
			const myTags = ctx.q('my_tags');
			if (myTags !== undefined && myTags !== 'true' && myTags !== 'false') {
				throw HttpError.invalidData({ [ctx.v === 'v2.1' ? 'param_name' : 'param']: 'my_tags' });
			}
			const all = tagsOfModule(sandbox, module.api_name);
			const userId = sandbox.user(ctx).id;
			const tags = myTags === 'true' ? all.filter((t) => t.created_by.id === userId) : all;
			return listReply('tags', tags.map(tagJson), { info: { count: tags.length, allowed_count: config.tagsPerModule } });
		},
		settingsOpts,
	);

	// CreateTags
	router.post(
		'/settings/tags',
		(ctx) => {
			const module = moduleParam(ctx);
			const items = wrapperList(ctx, 'tags', TAG_WRITE_MAX);
			const user = sandbox.user(ctx);
			const results = store.transaction(() =>
				items.map((item, index): Json | ErrorBody => {
					if (!item || typeof item !== 'object' || Array.isArray(item)) return errorItem('INVALID_DATA', {}, 'invalid data');
					const input = item as Json;
					const problem = tagNameProblem(input.name);
					if (problem) {
						const code = problem.message === 'required field not found' ? 'MANDATORY_NOT_FOUND' : 'INVALID_DATA';
						return errorItem(code, itemDetails(ctx, problem.details, index), problem.message);
					}
					const name = String(input.name).trim();
					const color = input.color_code === undefined || input.color_code === null ? null : String(input.color_code);
					if (color !== null && !COLOR_PATTERN.test(color)) {
						return errorItem('INVALID_DATA', itemDetails(ctx, { api_name: 'color_code' }, index), 'the colour is not supported');
					}
					const duplicate = findByName(sandbox, module.api_name, name);
					if (duplicate) return errorItem('DUPLICATE_DATA', itemDetails(ctx, { api_name: 'name', id: duplicate.id }, index), 'duplicate data');
					if (tagsOfModule(sandbox, module.api_name).length >= config.tagsPerModule) {
						return errorItem('LIMIT_EXCEEDED', { limit: config.tagsPerModule, api_name: 'tags' }, 'tag limit for record or module has been exceeded');
					}
					const tag = newTag(module, name, color, user);
					store.putDoc(TAGS, tag.id, tag);
					return { code: 'SUCCESS', details: tagJson(tag), message: 'tags created successfully', status: 'success' };
				}),
			);
			return { status: writeStatus(results, 201), body: { tags: results } };
		},
		settingsOpts,
	);

	const updateOne = (ctx: Ctx, module: ModuleDef, item: unknown, index: number, pathId?: string): Json | ErrorBody => {
		if (!item || typeof item !== 'object' || Array.isArray(item)) return errorItem('INVALID_DATA', {}, 'invalid data');
		const input = item as Json;
		const id = pathId ?? (input.id === undefined || input.id === null ? undefined : String(input.id));
		if (!id) return errorItem('MANDATORY_NOT_FOUND', itemDetails(ctx, { api_name: 'id' }, index));
		const tag = store.doc<TagDoc>(TAGS, id);
		if (!tag || tag.module !== module.api_name) return errorItem('TAG_ID_NOT_FOUND', { id }, 'the tag id given seems to be invalid');
		const problem = tagNameProblem(input.name);
		if (problem) {
			const code = problem.message === 'required field not found' ? 'MANDATORY_NOT_FOUND' : 'INVALID_DATA';
			return errorItem(code, itemDetails(ctx, problem.details, index), problem.message);
		}
		const name = String(input.name).trim();
		const duplicate = findByName(sandbox, module.api_name, name);
		if (duplicate && duplicate.id !== id) return errorItem('DUPLICATE_DATA', itemDetails(ctx, { api_name: 'name', id: duplicate.id }, index), 'duplicate data');
		let color = tag.color_code;
		if (input.color_code !== undefined) {
			color = input.color_code === null ? null : String(input.color_code);
			if (color !== null && !COLOR_PATTERN.test(color)) {
				return errorItem('INVALID_DATA', itemDetails(ctx, { api_name: 'color_code' }, index), 'the colour is not supported');
			}
		}
		const updated: TagDoc = { ...tag, name, color_code: color, modified_time: sandbox.formatTime(), modified_by: byUser(sandbox.user(ctx)) };
		store.putDoc(TAGS, id, updated);
		if (updated.name !== tag.name || updated.color_code !== tag.color_code) {
			rewriteRecordTags(sandbox, module.api_name, (tags) => (tags.some((t) => t.id === id) ? tags.map((t) => (t.id === id ? ref(updated) : t)) : undefined), ctx.v);
		}
		return { code: 'SUCCESS', details: tagJson(updated), message: 'tags updated successfully', status: 'success' };
	};

	// UpdateTags
	router.put(
		'/settings/tags',
		(ctx) => {
			const module = moduleParam(ctx);
			const items = wrapperList(ctx, 'tags', TAG_WRITE_MAX);
			const results = store.transaction(() => items.map((item, index) => updateOne(ctx, module, item, index)));
			return { status: writeStatus(results, 200), body: { tags: results } };
		},
		settingsOpts,
	);

	// UpdateTag
	router.put(
		'/settings/tags/:id',
		(ctx) => {
			const module = moduleParam(ctx);
			const items = wrapperList(ctx, 'tags', 1);
			const results = store.transaction(() => items.map((item, index) => updateOne(ctx, module, item, index, ctx.params.id)));
			return { status: writeStatus(results, 200), body: { tags: results } };
		},
		settingsOpts,
	);

	// DeleteTag
	router.delete(
		'/settings/tags/:id',
		(ctx) => {
			const tag = store.doc<TagDoc>(TAGS, ctx.params.id);
			if (!tag) throw new HttpError('TAG_ID_NOT_FOUND', { id: ctx.params.id }, 'the tag id given seems to be invalid');
			store.transaction(() => {
				store.deleteDoc(TAGS, tag.id);
				rewriteRecordTags(sandbox, tag.module, (tags) => (tags.some((t) => t.id === tag.id) ? tags.filter((t) => t.id !== tag.id) : undefined), ctx.v);
			});
			return { body: { tags: [{ code: 'SUCCESS', details: { id: tag.id }, message: 'tags deleted successfully', status: 'success' }] } };
		},
		settingsOpts,
	);

	// MergeTags: tag {id} is removed, its records get conflict_id (**assumed** direction)
	router.post(
		'/settings/tags/:id/actions/merge',
		(ctx) => {
			const [item] = wrapperList(ctx, 'tags', 1) as Json[];
			const source = store.doc<TagDoc>(TAGS, ctx.params.id);
			if (!source) throw new HttpError('TAG_ID_NOT_FOUND', { id: ctx.params.id }, 'the tag id given seems to be invalid');
			const conflictId = item && typeof item === 'object' ? item.conflict_id : undefined;
			if (conflictId === undefined || conflictId === null || conflictId === '') {
				throw HttpError.mandatory('conflict_id');
			}
			const target = store.doc<TagDoc>(TAGS, String(conflictId));
			if (!target || target.module !== source.module || target.id === source.id) {
				throw new HttpError('TAG_ID_NOT_FOUND', { api_name: 'conflict_id', id: String(conflictId) }, 'the tag id given seems to be invalid');
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
			return { body: { tags: [{ code: 'SUCCESS', details: { id: target.id }, message: 'tags merged successfully', status: 'success' }] } };
		},
		{ scopes: [['CRM.settings.tags.UPDATE']] },
	);

	// GetRecordCountForTag: `count` is a JSON string
	router.get(
		'/settings/tags/:id/actions/records_count',
		(ctx) => {
			const module = moduleParam(ctx);
			const tag = store.doc<TagDoc>(TAGS, ctx.params.id);
			if (!tag || tag.module !== module.api_name) {
				throw new HttpError('TAG_ID_NOT_FOUND', { id: ctx.params.id }, 'the tag id given seems to be invalid');
			}
			return { body: { count: String(recordCountOf(sandbox, tag)) } };
		},
		settingsOpts,
	);

	// AddTagsToRecord / RemoveTagsFromRecord
	for (const mode of ['add', 'remove'] as const) {
		router.post(
			`/:module/:recordId/actions/${mode}_tags`,
			(ctx) => {
				const names = tagNamesParam(ctx);
				const overWrite = mode === 'add' ? overWriteParam(ctx) : false;
				const result = store.transaction(() => tagRecord(ctx, ctx.module!, ctx.params.recordId, names, mode, overWrite));
				return actionReply([result]);
			},
			recordOpts,
		);

		// AddTagsToMultipleRecords / RemoveTagsFromMultipleRecords
		router.post(
			`/:module/actions/${mode}_tags`,
			(ctx) => {
				const names = tagNamesParam(ctx);
				const ids = idsParam(ctx, 'ids', TAG_RECORD_IDS_MAX, true)!;
				const overWrite = mode === 'add' ? overWriteParam(ctx) : false;
				const results = store.transaction(() => ids.map((id) => tagRecord(ctx, ctx.module!, id, names, mode, overWrite)));
				return actionReply(results);
			},
			recordOpts,
		);
	}
}

/** Seed: a few tags per main module, `VIP` on the first two leads and accounts. */
function seedTags(sandbox: Sandbox): void {
	const { store } = sandbox;
	const admin = sandbox.user();
	const time = sandbox.formatTime();
	const seed: Array<[string, string, string]> = [
		['Leads', 'VIP', '#F17574'],
		['Leads', 'Webinar 2024', '#57B1FD'],
		['Leads', 'Follow up', '#FFB342'],
		['Contacts', 'VIP', '#F17574'],
		['Contacts', 'Partner', '#63C57E'],
		['Accounts', 'VIP', '#F17574'],
		['Accounts', 'Strategic', '#A78BFA'],
		['Deals', 'Priority', '#FF6F61'],
	];
	const tags: TagDoc[] = seed.map(([module, name, color]) => ({
		id: store.nextId(),
		name,
		color_code: color,
		module,
		created_time: time,
		modified_time: time,
		created_by: byUser(admin),
		modified_by: byUser(admin),
	}));
	for (const tag of tags) store.putDoc(TAGS, tag.id, tag);
	for (const module of ['Leads', 'Accounts']) {
		const vip = tags.find((t) => t.module === module && t.name === 'VIP')!;
		// part of the demo data, not a later change: the records keep their modification time
		for (const record of store.listRecords(module, { limit: 2 })) {
			store.replaceRecord(module, { ...record, Tag: [ref(vip)] }, parseDateTime(record.Modified_Time) ?? sandbox.now(), {}, { silent: true });
		}
	}
}
