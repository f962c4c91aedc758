// Helpers of the related records (docs/protocol.md §5.2): lookup links and relation documents,
// listing, linking and delinking; notes.ts and contact-roles.ts use them too.
import type { ModuleDef } from '../../catalogue/modules.ts';
import type { ErrorBody } from '../../errors.ts';
import { HttpError, errorItem } from '../../errors.ts';
import type { ExternalSpec } from '../../records.ts';
import { deleteRecord, findRecord, parseExternalHeader, updateRecord } from '../../records.ts';
import type { Ctx } from '../../router.ts';
import type { Json, StoredRecord } from '../../store.ts';
import type { Sandbox } from '../../types.ts';
import { paramKey } from '../../wire.ts';

/** Related records share the record scopes: CRM.modules.ALL or CRM.modules.{mod}.{ACCESS} (§2.3). */
export const RELATED_SCOPES = [['CRM.modules.{mod}.{ACCESS}']];

export const RELATED_WRITE_MAX = 100;
/** `ids` of DelinkRecords: the contract names no bound; the sandbox uses the record bound (**assumed**). */
export const DELINK_IDS_MAX = 100;

export const RELATIONS = 'relations';

type RelatedListDef = ModuleDef['related_lists'][number];

interface RelationEnd {
	module: string;
	id: string;
}

/** A link between two records of a list without lookup field; `fields` are the relation fields. */
export interface RelationDoc {
	id: string;
	a: RelationEnd;
	b: RelationEnd;
	fields: Json;
	linked_time: string;
	modified: number;
}

export const endKey = (end: RelationEnd) => `${end.module}:${end.id}`;

function relationKey(x: RelationEnd, y: RelationEnd): string {
	return [endKey(x), endKey(y)].sort().join('|');
}

export function getRelation(
	sandbox: Sandbox,
	x: RelationEnd,
	y: RelationEnd,
): RelationDoc | undefined {
	return sandbox.store.doc<RelationDoc>(RELATIONS, relationKey(x, y));
}

/** Creates or updates the link x ↔ y, merging relation fields; answers whether it was new. */
export function putRelation(
	sandbox: Sandbox,
	x: RelationEnd,
	y: RelationEnd,
	fields: Json,
): { created: boolean; doc: RelationDoc } {
	const existing = getRelation(sandbox, x, y);
	const now = sandbox.now();
	const doc: RelationDoc = existing
		? { ...existing, fields: { ...existing.fields, ...fields }, modified: now }
		: {
				id: relationKey(x, y),
				a: x,
				b: y,
				fields: { ...fields },
				linked_time: sandbox.formatTime(now),
				modified: now,
			};
	sandbox.store.putDoc(RELATIONS, doc.id, doc);
	return { created: !existing, doc };
}

export function deleteRelation(sandbox: Sandbox, x: RelationEnd, y: RelationEnd): boolean {
	return sandbox.store.deleteDoc(RELATIONS, relationKey(x, y));
}

/** The links of one record to records of `otherModule`, in link order: the other end and the doc. */
export function relationsOf(
	sandbox: Sandbox,
	end: RelationEnd,
	otherModule: string,
): Array<{ other: RelationEnd; doc: RelationDoc }> {
	const out: Array<{ other: RelationEnd; doc: RelationDoc }> = [];
	for (const doc of sandbox.store.docs<RelationDoc>(RELATIONS)) {
		const other =
			endKey(doc.a) === endKey(end) ? doc.b : endKey(doc.b) === endKey(end) ? doc.a : undefined;
		if (other && other.module === otherModule) out.push({ other, doc });
	}
	return out;
}

/** Publishes a link change on the parent record as a related update (notifications, §9). */
export function emitRelatedChange(
	sandbox: Sandbox,
	parent: RelationEnd,
	list: string,
	v: string,
): void {
	sandbox.store.emit({
		module: parent.module,
		operation: 'update',
		related: true,
		v,
		changes: [{ id: parent.id, fields: [list], values: {} }],
	});
}

/** A contact role given by id or name (case-insensitive), as stored on a deal–contact link. */
export function resolveContactRole(
	sandbox: Sandbox,
	value: unknown,
): { id: string; name: string } | undefined {
	if (value && typeof value === 'object') value = (value as Json).id ?? (value as Json).name;
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(value).trim().toLowerCase();
	const role = sandbox.store
		.docs<{ id: string; name: string }>('contact_roles')
		.find((r) => r.id === text || r.name.toLowerCase() === text);
	return role ? { id: role.id, name: role.name } : undefined;
}

/** The lookup field that defines a list, if any (Notes hang on `Parent_Id`). */
function lookupFieldOf(list: RelatedListDef): string | undefined {
	if (list.module === 'Notes') return 'Parent_Id';
	return list.lookup_field;
}

/** The related list `{relatedList}` of the module and its target module; 400 INVALID_DATA otherwise (§5.2). */
function relatedListOf(
	ctx: Ctx,
	module: ModuleDef,
	name: string,
): { list: RelatedListDef; target: ModuleDef } {
	const list = module.related_lists.find((l) => l.api_name.toLowerCase() === name.toLowerCase());
	// attachments have their own routes (§5.4); other methods on them are wrong methods
	if (list?.module === 'Attachments') throw HttpError.method();
	const target = list ? ctx.sandbox.module(list.module) : undefined;
	if (!list || !target) {
		throw HttpError.invalidData(
			{ [paramKey(ctx)]: 'related_list' },
			'the related list given seems to be invalid',
		);
	}
	return { list, target };
}

function externalSpec(ctx: Ctx, module: ModuleDef): ExternalSpec {
	const spec = parseExternalHeader(ctx.sandbox, ctx.header('x-external'), module);
	if ('code' in spec) throw new HttpError(spec.code, spec.details, spec.message);
	return spec;
}

interface Addressed {
	module: ModuleDef;
	parent: StoredRecord | undefined;
	parentKey: string;
	list: RelatedListDef;
	target: ModuleDef;
	/** external field of the related module (X-EXTERNAL pair), if any */
	relatedField?: string;
	lookup?: string;
}

export function addressed(ctx: Ctx): Addressed {
	const module = ctx.module!;
	const { list, target } = relatedListOf(ctx, module, ctx.params.relatedList);
	const spec = externalSpec(ctx, module);
	const parentKey = ctx.params.recordId;
	const parent = findRecord(ctx.sandbox, module, parentKey, spec);
	return {
		module,
		parent,
		parentKey,
		list,
		target,
		relatedField: spec.byModule[target.api_name],
		lookup: lookupFieldOf(list),
	};
}

export function requireParent(a: Addressed): StoredRecord {
	if (!a.parent)
		throw HttpError.invalidData({ id: a.parentKey }, 'the id given seems to be invalid');
	return a.parent;
}

export function findRelated(ctx: Ctx, a: Addressed, key: string): StoredRecord | undefined {
	return a.relatedField
		? ctx.sandbox.store.findRecordBy(a.target.api_name, a.relatedField, key)
		: ctx.sandbox.store.getRecord(a.target.api_name, key);
}

/** The related records of a parent, each with its relation fields and the time its link changed. */
export function relatedOf(
	sandbox: Sandbox,
	parentModule: ModuleDef,
	parent: StoredRecord,
	list: RelatedListDef,
): Array<{ record: Json; changed: number }> {
	const lookup = lookupFieldOf(list);
	if (lookup) {
		const out: Array<{ record: Json; changed: number }> = [];
		for (const record of sandbox.store.iterateRecords(list.module)) {
			const ref = record[lookup] as Json | null | undefined;
			if (!ref || ref.id !== parent.id) continue;
			if (
				list.module === 'Notes' &&
				record.$se_module &&
				record.$se_module !== parentModule.api_name
			)
				continue;
			out.push({ record, changed: Date.parse(String(record.Modified_Time)) });
		}
		return out;
	}
	const out: Array<{ record: Json; changed: number }> = [];
	for (const { other, doc } of relationsOf(
		sandbox,
		{ module: parentModule.api_name, id: parent.id },
		list.module,
	)) {
		const record = sandbox.store.getRecord(other.module, other.id);
		if (!record) continue;
		out.push({
			record: { ...record, ...doc.fields },
			changed: Math.max(doc.modified, Date.parse(String(record.Modified_Time))),
		});
	}
	return out;
}

export function isLinked(
	sandbox: Sandbox,
	a: Addressed,
	parent: StoredRecord,
	related: StoredRecord,
): boolean {
	if (a.lookup) return (related[a.lookup] as Json | null | undefined)?.id === parent.id;
	return !!getRelation(
		sandbox,
		{ module: a.module.api_name, id: parent.id },
		{ module: a.target.api_name, id: related.id },
	);
}

function successDetails(a: Addressed, related: StoredRecord): Json {
	const details: Json = { id: related.id };
	if (a.relatedField) details[a.relatedField] = related[a.relatedField];
	return details;
}

/** Relation fields of a link without lookup; contact roles resolve to `{id, name}`. */
function relationFields(
	ctx: Ctx,
	a: Addressed,
	input: Json,
	index: number,
): { fields: Json } | { error: ErrorBody } {
	const fields: Json = {};
	for (const [key, value] of Object.entries(input)) {
		if (key === 'Contact_Role' && a.target.api_name === 'Contacts') {
			if (value === null || value === '') {
				fields[key] = null;
				continue;
			}
			const role = resolveContactRole(ctx.sandbox, value);
			if (!role) {
				const details: Json = { api_name: key };
				if (ctx.v === 'v2.1') details.json_path = `$.data[${index}].${key}`;
				return {
					error: errorItem('INVALID_DATA', details, 'the contact role given seems to be invalid'),
				};
			}
			fields[key] = role;
			continue;
		}
		if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
			return { error: errorItem('INVALID_DATA', { api_name: key }, 'invalid data') };
		}
		fields[key] = value;
	}
	return { fields };
}

export function linkOne(
	ctx: Ctx,
	a: Addressed,
	parent: StoredRecord,
	item: unknown,
	index: number,
	pathKey?: string,
): Json | ErrorBody {
	const { sandbox } = ctx;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = { ...(item as Json) };
	const keyField = a.relatedField ?? 'id';
	const raw = pathKey ?? input[keyField];
	delete input.id;
	if (a.relatedField) delete input[a.relatedField];
	if (raw === undefined || raw === null || raw === '') {
		const details: Json = { api_name: keyField };
		if (ctx.v === 'v2.1') details.json_path = `$.data[${index}].${keyField}`;
		return errorItem('MANDATORY_NOT_FOUND', details);
	}
	const related = findRelated(ctx, a, String(raw));
	if (!related)
		return errorItem(
			'INVALID_DATA',
			{ id: String(raw) },
			'the related id given seems to be invalid',
		);
	if (a.lookup) {
		const changes: Json = { ...input, [a.lookup]: { id: parent.id } };
		if (a.target.api_name === 'Notes') changes.$se_module = a.module.api_name;
		const result = updateRecord(sandbox, a.target, related, changes, {
			v: ctx.v,
			user: sandbox.user(ctx),
			index,
			related: true,
			message: 'relation added',
		});
		if (!result.ok) return result.body;
	} else {
		const checked = relationFields(ctx, a, input, index);
		if ('error' in checked) return checked.error;
		const [from, to] = endsOf(a, parent, related);
		putRelation(sandbox, from, to, checked.fields);
		emitRelatedChange(sandbox, from, a.list.api_name, ctx.v);
	}
	return relationSuccess(a, related, 'relation added');
}

export function delinkOne(
	ctx: Ctx,
	a: Addressed,
	parent: StoredRecord,
	key: string,
): Json | ErrorBody {
	const { sandbox } = ctx;
	const related = findRelated(ctx, a, key);
	if (!related)
		return errorItem('INVALID_DATA', { id: key }, 'the related id given seems to be invalid');
	if (!isLinked(sandbox, a, parent, related)) {
		return errorItem('INVALID_DATA', { id: key }, 'the record is not related to the given record');
	}
	const user = sandbox.user(ctx);
	if (a.target.api_name === 'Notes') {
		// a note cannot exist without its parent: delinking a note deletes it
		deleteRecord(sandbox, a.target, related, { v: ctx.v, user, index: 0 });
	} else if (a.lookup) {
		const result = updateRecord(
			sandbox,
			a.target,
			related,
			{ [a.lookup]: null },
			{
				v: ctx.v,
				user,
				index: 0,
				related: true,
				message: 'relation removed',
			},
		);
		if (!result.ok) return result.body;
	} else {
		const [from, to] = endsOf(a, parent, related);
		deleteRelation(sandbox, from, to);
		emitRelatedChange(sandbox, from, a.list.api_name, ctx.v);
	}
	return relationSuccess(a, related, 'relation removed');
}

/** The two ends of a relation of the list `a`: the parent record, then the related one. */
const endsOf = (a: Addressed, parent: StoredRecord, related: StoredRecord) =>
	[
		{ module: a.module.api_name, id: parent.id },
		{ module: a.target.api_name, id: related.id },
	] as const;

const relationSuccess = (a: Addressed, related: StoredRecord, message: string): Json => ({
	code: 'SUCCESS',
	details: successDetails(a, related),
	message,
	status: 'success',
});
