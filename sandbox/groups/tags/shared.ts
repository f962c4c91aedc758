// Helpers of the tag operations (docs/protocol.md §5.5): tag documents, name rules (§6), the
// records' `Tag` lists, and the seed.
import type { ModuleDef } from '../../catalogue/modules.ts';
import { errorItem, HttpError } from '../../errors.ts';
import type { ErrorBody } from '../../errors.ts';
import { writeStatus } from '../../records.ts';
import type { Json, StoredRecord, UserRef } from '../../store.ts';
import { parseDateTime } from '../../time.ts';
import type { Ctx, Sandbox } from '../../types.ts';
import { paramKey } from '../../wire.ts';
import { successItem } from '../shared.ts';

/** Tag settings: CRM.settings.ALL or CRM.settings.tags.{ACCESS} (§2.3). */
export const TAG_SCOPES = [['CRM.settings.tags.{ACCESS}']];
/** Tags on records: CRM.modules.ALL or CRM.modules.{mod}.{ALL|WRITE|UPDATE} (§2.3, **assumed**). */
export const RECORD_TAG_SCOPES = [['CRM.modules.{mod}.UPDATE']];

export const TAGS = 'tags';
export const TAG_NAME_MAX = 25;
/** CreateTags / UpdateTags bound (**assumed** 1..100, §5.5). */
export const TAG_WRITE_MAX = 100;
/** `ids` of the multiple-record tag actions (**assumed**, as DeleteRecords). */
export const TAG_RECORD_IDS_MAX = 100;
/** Letters, digits, spaces, `_` and `-`; anything else is a special character. */
export const TAG_NAME_PATTERN = /^[\p{L}\p{N} _-]+$/u;
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

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

export const ref = (tag: TagDoc): TagRef => ({
	id: tag.id,
	name: tag.name,
	color_code: tag.color_code,
});

export function tagJson(tag: TagDoc): Json {
	const json: Json = { ...tag };
	delete json.module;
	return json;
}

export function tagsOfModule(sandbox: Sandbox, module: string): TagDoc[] {
	return sandbox.store.docs<TagDoc>(TAGS).filter((t) => t.module === module);
}

export function findByName(sandbox: Sandbox, module: string, name: string): TagDoc | undefined {
	const lower = name.toLowerCase();
	return tagsOfModule(sandbox, module).find((t) => t.name.toLowerCase() === lower);
}

/** Why a tag name is refused, or undefined (§6). */
function tagNameProblem(name: unknown): { details: Json; message: string } | undefined {
	if (typeof name !== 'string' || name.trim() === '')
		return { details: { api_name: 'name' }, message: 'required field not found' };
	if (name.trim().length > TAG_NAME_MAX) {
		return {
			details: { api_name: 'name', maximum_length: TAG_NAME_MAX },
			message: `tag name can contain only ${TAG_NAME_MAX} characters`,
		};
	}
	if (!TAG_NAME_PATTERN.test(name.trim()))
		return { details: { api_name: 'name' }, message: 'special characters found in the given name' };
	return undefined;
}

function byUser(user: UserRef): { id: string; name: string } {
	return { id: user.id, name: user.name };
}

export function itemDetails(ctx: Ctx, details: Json, index: number): Json {
	if (ctx.v === 'v2.1' && typeof details.api_name === 'string')
		return { ...details, json_path: `$.tags[${index}].${details.api_name}` };
	return details;
}

/** Rewrites the `Tag` list of every record of a module that carries one of the given tags. */
/** The item error of a tag name that tagNameProblem refuses. */
export function tagNameError(ctx: Ctx, name: unknown, index: number): ErrorBody | undefined {
	const problem = tagNameProblem(name);
	if (!problem) return undefined;
	const code =
		problem.message === 'required field not found' ? 'MANDATORY_NOT_FOUND' : 'INVALID_DATA';
	return errorItem(code, itemDetails(ctx, problem.details, index), problem.message);
}

/**
 * Deletes the tag `gone` and takes it off its records; with `into` (MergeTags) they get that tag
 * instead. Answers the one-item reply of `id` with `message`.
 */
export function dropTag(ctx: Ctx, gone: TagDoc, into: TagDoc | undefined, message: string) {
	const { sandbox } = ctx;
	const { store } = sandbox;
	store.transaction(() => {
		store.deleteDoc(TAGS, gone.id);
		rewriteRecordTags(
			sandbox,
			gone.module,
			(tags) => {
				if (!tags.some((t) => t.id === gone.id)) return undefined;
				const rest = tags.filter((t) => t.id !== gone.id);
				return !into || rest.some((t) => t.id === into.id) ? rest : [...rest, ref(into)];
			},
			ctx.v,
		);
	});
	return { body: { tags: [successItem((into ?? gone).id, message)] } };
}

function rewriteRecordTags(
	sandbox: Sandbox,
	module: string,
	touches: (tags: TagRef[]) => TagRef[] | undefined,
	v: string,
): number {
	const { store } = sandbox;
	const updates: Array<{ record: StoredRecord; tags: TagRef[] }> = [];
	for (const record of store.iterateRecords(module)) {
		const next = touches((record.Tag as TagRef[] | undefined) ?? []);
		if (next) updates.push({ record, tags: next });
	}
	const now = sandbox.now();
	for (const { record, tags } of updates) {
		store.replaceRecord(
			module,
			{ ...record, Tag: tags, Modified_Time: sandbox.formatTime(now) },
			now,
			{ Tag: tags },
			{ v },
		);
	}
	return updates.length;
}

export function recordCountOf(sandbox: Sandbox, tag: TagDoc): number {
	let count = 0;
	for (const record of sandbox.store.iterateRecords(tag.module)) {
		if (((record.Tag as TagRef[] | undefined) ?? []).some((t) => t.id === tag.id)) count++;
	}
	return count;
}

/** Validated `tag_names` of a record action: names must be valid; request-level 400 otherwise. */
export function tagNamesParam(ctx: Ctx): string[] {
	const names = ctx.list('tag_names');
	if (names.length === 0) throw HttpError.requiredParam('tag_names', ctx.v);
	for (const name of names) {
		const problem = tagNameProblem(name);
		if (problem)
			throw HttpError.invalidData(
				{ ...problem.details, [paramKey(ctx)]: 'tag_names', name },
				problem.message,
			);
	}
	const unique = new Map<string, string>();
	for (const name of names)
		if (!unique.has(name.toLowerCase())) unique.set(name.toLowerCase(), name);
	return [...unique.values()];
}

export function overWriteParam(ctx: Ctx): boolean {
	const value = ctx.q('over_write');
	if (value === undefined) return false;
	if (value !== 'true' && value !== 'false')
		throw HttpError.invalidData({ [paramKey(ctx)]: 'over_write' });
	return value === 'true';
}

/** Response of the record tag actions (§5.5): per-record items plus the counters. */
export function actionReply(results: Array<Json | ErrorBody>): { status: number; body: Json } {
	const ok = results.filter((r) => r.status === 'success').length;
	return {
		status: writeStatus(results, 200),
		body: { data: results, locked_count: 0, success_count: String(ok), wf_scheduler: false },
	};
}

export function newTag(
	sandbox: Sandbox,
	module: ModuleDef,
	name: string,
	color: string | null,
	user: UserRef,
): TagDoc {
	const time = sandbox.formatTime();
	return {
		id: sandbox.store.nextId(),
		name,
		color_code: color,
		module: module.api_name,
		created_time: time,
		modified_time: time,
		created_by: byUser(user),
		modified_by: byUser(user),
	};
}

/** Creates the unknown names (module limit applies); answers the tags or the limit error. */
function ensureTags(
	sandbox: Sandbox,
	module: ModuleDef,
	names: string[],
	user: UserRef,
): TagDoc[] | ErrorBody {
	const { config } = sandbox;
	const existing = tagsOfModule(sandbox, module.api_name);
	const out: TagDoc[] = [];
	const missing: string[] = [];
	for (const name of names) {
		const tag = existing.find((t) => t.name.toLowerCase() === name.toLowerCase());
		if (tag) out.push(tag);
		else missing.push(name);
	}
	if (existing.length + missing.length > config.tagsPerModule) {
		return errorItem(
			'LIMIT_EXCEEDED',
			{ limit: config.tagsPerModule, api_name: 'tag_names' },
			'tag limit for record or module has been exceeded',
		);
	}
	for (const name of missing) {
		const tag = newTag(sandbox, module, name, null, user);
		sandbox.store.putDoc(TAGS, tag.id, tag);
		out.push(tag);
	}
	return out;
}

/** Adds or removes tags on one record (AddTagsToRecord … RemoveTagsFromMultipleRecords). */
export function tagRecord(
	ctx: Ctx,
	module: ModuleDef,
	id: string,
	names: string[],
	mode: 'add' | 'remove',
	overWrite: boolean,
): Json | ErrorBody {
	const { sandbox } = ctx;
	const { store, config } = sandbox;
	const record = store.getRecord(module.api_name, id);
	if (!record) return errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
	const current = (record.Tag as TagRef[] | undefined) ?? [];
	let next: TagRef[];
	if (mode === 'add') {
		const base = overWrite ? [] : current;
		const wanted = names.filter((n) => !base.some((t) => t.name.toLowerCase() === n.toLowerCase()));
		if (base.length + wanted.length > config.tagsPerRecord) {
			return errorItem(
				'LIMIT_EXCEEDED',
				{ limit: config.tagsPerRecord, id },
				'tag limit for record or module has been exceeded',
			);
		}
		const tags = ensureTags(sandbox, module, wanted, sandbox.user(ctx));
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
			{
				...record,
				Tag: next,
				Modified_Time: sandbox.formatTime(now),
				Modified_By: { id: user.id, name: user.name, email: user.email },
			},
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
}

/** One item of UpdateTags / UpdateTag. */
export function updateOne(
	ctx: Ctx,
	module: ModuleDef,
	item: unknown,
	index: number,
	pathId?: string,
): Json | ErrorBody {
	const { sandbox } = ctx;
	const { store } = sandbox;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = item as Json;
	const id = pathId ?? (input.id === undefined || input.id === null ? undefined : String(input.id));
	if (!id) return errorItem('MANDATORY_NOT_FOUND', itemDetails(ctx, { api_name: 'id' }, index));
	const tag = store.doc<TagDoc>(TAGS, id);
	if (!tag || tag.module !== module.api_name)
		return errorItem('TAG_ID_NOT_FOUND', { id }, 'the tag id given seems to be invalid');
	const nameError = tagNameError(ctx, input.name, index);
	if (nameError) return nameError;
	const name = String(input.name).trim();
	const duplicate = findByName(sandbox, module.api_name, name);
	if (duplicate && duplicate.id !== id)
		return errorItem(
			'DUPLICATE_DATA',
			itemDetails(ctx, { api_name: 'name', id: duplicate.id }, index),
			'duplicate data',
		);
	let color = tag.color_code;
	if (input.color_code !== undefined) {
		color = input.color_code === null ? null : String(input.color_code);
		if (color !== null && !COLOR_PATTERN.test(color)) {
			return errorItem(
				'INVALID_DATA',
				itemDetails(ctx, { api_name: 'color_code' }, index),
				'the colour is not supported',
			);
		}
	}
	const updated: TagDoc = {
		...tag,
		name,
		color_code: color,
		modified_time: sandbox.formatTime(),
		modified_by: byUser(sandbox.user(ctx)),
	};
	store.putDoc(TAGS, id, updated);
	if (updated.name !== tag.name || updated.color_code !== tag.color_code) {
		rewriteRecordTags(
			sandbox,
			module.api_name,
			(tags) =>
				tags.some((t) => t.id === id)
					? tags.map((t) => (t.id === id ? ref(updated) : t))
					: undefined,
			ctx.v,
		);
	}
	return {
		code: 'SUCCESS',
		details: tagJson(updated),
		message: 'tags updated successfully',
		status: 'success',
	};
}

/** Seed: a few tags per main module, `VIP` on the first two leads and accounts. */
export function seedTags(sandbox: Sandbox): void {
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
			store.replaceRecord(
				module,
				{ ...record, Tag: [ref(vip)] },
				parseDateTime(record.Modified_Time) ?? sandbox.now(),
				{},
				{ silent: true },
			);
		}
	}
}
