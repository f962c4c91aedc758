// Notes (docs/protocol.md §5.3): GetNotes, CreateNotes, UpdateNotes, DeleteNotes, GetNote, UpdateNote,
// DeleteNote, and the parent-scoped GET/POST /{module}/{recordId}/Notes.
//
// Notes are records of the Notes module, written through the record service (change events fire),
// with `Parent_Id` {id, name} and `$se_module` naming the parent's module. These literal `/Notes`
// routes win over the generic `/:module` record routes (§3.10: they coincide). Deleting a record
// deletes its notes.
import { HttpError, errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import { createRecord, deleteRecord, pickFields, recordName, updateRecord } from '../records.ts';
import type { Ctx, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import type { ModuleDef } from '../catalogue/modules.ts';
import type { Json, StoredRecord } from '../store.ts';
import {
	childPage,
	idsParam,
	ifModifiedSince,
	pagedReply,
	paging,
	paramKey,
	wrapperList,
} from '../wire.ts';
import { relatedOf } from './related/shared.ts';
import { eachItem, resultsReply, writeEach } from './shared.ts';

/** Notes: CRM.modules.ALL or CRM.modules.notes.{ACCESS} (§2.3). */
const NOTES_SCOPES = [['CRM.modules.notes.{ACCESS}']];

const NOTES_WRITE_MAX = 100;
/** `ids` of DeleteNotes (**assumed** bound, §5.3). */
const NOTES_DELETE_IDS_MAX = 100;

function notesModule(sandbox: Sandbox): ModuleDef {
	const module = sandbox.module('Notes');
	if (!module) throw new HttpError('INVALID_MODULE', {});
	return module;
}

function fieldsParam(ctx: Ctx, module: ModuleDef): string[] | undefined {
	const fields = ctx.list('fields');
	if (fields.length === 0) return undefined;
	const known = new Set(module.fields.map((f) => f.api_name));
	const unknown = fields.find((f) => !known.has(f) && !f.startsWith('$'));
	if (unknown)
		throw HttpError.invalidData(
			{ api_name: unknown, [paramKey(ctx)]: 'fields' },
			'invalid field name',
		);
	return fields;
}

/** A note as read: Parent_Id and $se_module always present. */
function noteJson(note: Json, fields: string[] | undefined): Json {
	const picked = pickFields(note, fields);
	if (fields) {
		picked.Parent_Id = note.Parent_Id;
		picked.$se_module = note.$se_module;
	}
	return picked;
}

function itemError(
	ctx: Ctx,
	code: string,
	apiName: string,
	index: number,
	message?: string,
): ErrorBody {
	const details: Json = { api_name: apiName };
	if (ctx.v === 'v2.1') details.json_path = `$.data[${index}].${apiName}`;
	return errorItem(code, details, message);
}

/**
 * Checks `Parent_Id` + `$se_module` of a note to create (or to move): the parent must be a record of
 * that module. Answers the normalised input or an error item.
 */
function withParent(
	ctx: Ctx,
	input: Json,
	index: number,
	required: boolean,
): { input: Json } | { error: ErrorBody } {
	const out = { ...input };
	const rawModule = input.$se_module;
	const rawParent = input.Parent_Id;
	if (rawModule === undefined && rawParent === undefined && !required) return { input: out };
	if (rawModule === undefined || rawModule === null || rawModule === '')
		return { error: itemError(ctx, 'MANDATORY_NOT_FOUND', '$se_module', index) };
	if (rawParent === undefined || rawParent === null || rawParent === '')
		return { error: itemError(ctx, 'MANDATORY_NOT_FOUND', 'Parent_Id', index) };
	const module = typeof rawModule === 'string' ? ctx.sandbox.module(rawModule) : undefined;
	if (!module || module.api_name === 'Notes') {
		return {
			error: itemError(
				ctx,
				'INVALID_DATA',
				'$se_module',
				index,
				'the module name given seems to be invalid',
			),
		};
	}
	const parentId = typeof rawParent === 'object' ? (rawParent as Json).id : rawParent;
	const parent =
		parentId === undefined || parentId === null
			? undefined
			: ctx.sandbox.store.getRecord(module.api_name, String(parentId));
	if (!parent)
		return {
			error: itemError(ctx, 'INVALID_DATA', 'Parent_Id', index, 'the id given seems to be invalid'),
		};
	out.$se_module = module.api_name;
	out.Parent_Id = { id: parent.id };
	return { input: out };
}

function createNote(
	ctx: Ctx,
	item: unknown,
	index: number,
	parent?: { module: ModuleDef; record: StoredRecord },
): Json | ErrorBody {
	const { sandbox } = ctx;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	let input = item as Json;
	if (parent) {
		input = { ...input, Parent_Id: { id: parent.record.id }, $se_module: parent.module.api_name };
	} else {
		const checked = withParent(ctx, input, index, true);
		if ('error' in checked) return checked.error;
		input = checked.input;
	}
	const result = createRecord(sandbox, notesModule(sandbox), input, {
		v: ctx.v,
		user: sandbox.user(ctx),
		index,
	});
	return result.body;
}

function updateOneNote(ctx: Ctx, item: unknown, index: number, pathId?: string): Json | ErrorBody {
	const { sandbox } = ctx;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = { ...(item as Json) };
	const id = pathId ?? input.id;
	delete input.id;
	if (id === undefined || id === null || id === '')
		return itemError(ctx, 'MANDATORY_NOT_FOUND', 'id', index);
	const module = notesModule(sandbox);
	const existing = sandbox.store.getRecord(module.api_name, String(id));
	if (!existing)
		return errorItem('INVALID_DATA', { id: String(id) }, 'the id given seems to be invalid');
	if (input.Parent_Id !== undefined || input.$se_module !== undefined) {
		const checked = withParent(ctx, { $se_module: existing.$se_module, ...input }, index, false);
		if ('error' in checked) return checked.error;
		Object.assign(input, checked.input);
	}
	return updateRecord(sandbox, module, existing, input, {
		v: ctx.v,
		user: sandbox.user(ctx),
		index,
	}).body;
}

function deleteOneNote(ctx: Ctx, id: string): Json | ErrorBody {
	const { sandbox } = ctx;
	const module = notesModule(sandbox);
	const existing = sandbox.store.getRecord(module.api_name, id);
	if (!existing) return errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
	return deleteRecord(sandbox, module, existing, { v: ctx.v, user: sandbox.user(ctx), index: 0 });
}

/** Parent_Id gets the parent's display name on read, as the service shows it. */
function withParentName(sandbox: Sandbox, note: StoredRecord): StoredRecord {
	const ref = note.Parent_Id as Json | undefined;
	const module = typeof note.$se_module === 'string' ? sandbox.module(note.$se_module) : undefined;
	if (!ref || !module || ref.name) return note;
	const parent = sandbox.store.getRecord(module.api_name, String(ref.id));
	return parent ? { ...note, Parent_Id: { id: ref.id, name: recordName(module, parent) } } : note;
}

const opts = { scopes: NOTES_SCOPES };

// GetNotes
const getNotes = operation('GET', '/Notes', opts, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const module = notesModule(sandbox);
	const p = paging(ctx);
	const fields = fieldsParam(ctx, module);
	let sortBy: string | undefined;
	let sortOrder: 'asc' | 'desc' = 'desc';
	if (ctx.v === 'v2.1') {
		sortBy = ctx.q('sort_by');
		if (sortBy && !['id', 'Created_Time', 'Modified_Time'].includes(sortBy)) {
			throw HttpError.invalidData({ [paramKey(ctx)]: 'sort_by' }, 'invalid sort_by field');
		}
		const order = ctx.q('sort_order');
		if (order && order !== 'asc' && order !== 'desc')
			throw HttpError.invalidData({ [paramKey(ctx)]: 'sort_order' });
		sortOrder = (order ?? 'desc') as 'asc' | 'desc';
	}
	const since = ifModifiedSince(ctx);
	if (since !== undefined && (store.latestModified(module.api_name) ?? 0) <= since)
		return { status: 304 };
	const notes = store.listRecords(module.api_name, {
		sortBy,
		sortOrder,
		modifiedSince: since,
		offset: p.offset,
		limit: p.perPage + 1,
	});
	const extra = sortBy ? { sort_by: sortBy, sort_order: sortOrder } : {};
	return pagedReply(
		'data',
		p,
		notes.map((n) => noteJson(withParentName(sandbox, n), fields)),
		extra,
	);
});

// CreateNotes
const createNotes = operation('POST', '/Notes', opts, (ctx) => {
	return writeEach(ctx, 'data', NOTES_WRITE_MAX, 201, (item, index) =>
		createNote(ctx, item, index),
	);
});

// UpdateNotes
const updateNotes = operation('PUT', '/Notes', opts, (ctx) => {
	return writeEach(ctx, 'data', NOTES_WRITE_MAX, 200, (item, index) =>
		updateOneNote(ctx, item, index),
	);
});

// DeleteNotes
const deleteNotes = operation('DELETE', '/Notes', opts, (ctx) => {
	const ids = idsParam(ctx, 'ids', NOTES_DELETE_IDS_MAX, true)!;
	return resultsReply(
		'data',
		200,
		eachItem(ctx, ids, (id) => deleteOneNote(ctx, id)),
	);
});

// GetNote
const getNote = operation('GET', '/Notes/:id', opts, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const module = notesModule(sandbox);
	const fields = fieldsParam(ctx, module);
	const note = store.getRecord(module.api_name, ctx.params.id);
	if (!note) return { status: 204 };
	const since = ifModifiedSince(ctx);
	if (since !== undefined && Date.parse(String(note.Modified_Time)) <= since)
		return { status: 304 };
	return { body: { data: [noteJson(withParentName(sandbox, note), fields)] } };
});

// UpdateNote
const updateNote = operation('PUT', '/Notes/:id', opts, (ctx) => {
	return writeEach(ctx, 'data', NOTES_WRITE_MAX, 200, (item, index) =>
		updateOneNote(ctx, item, index, ctx.params.id),
	);
});

// DeleteNote
const deleteNote = operation('DELETE', '/Notes/:id', opts, (ctx) => {
	const { store } = ctx.sandbox;
	const result = store.transaction(() => deleteOneNote(ctx, ctx.params.id));
	return resultsReply('data', 200, [result]);
});

// GetRelatedRecords with {relatedList} = Notes: the notes of one record
const getRecordNotes = operation('GET', '/:module/:recordId/Notes', opts, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const module = ctx.module!;
	const p = paging(ctx);
	const list = module.related_lists.find((l) => l.module === 'Notes');
	if (!list)
		throw HttpError.invalidData(
			{ [paramKey(ctx)]: 'related_list' },
			'the related list given seems to be invalid',
		);
	const parent = store.getRecord(module.api_name, ctx.params.recordId);
	if (!parent) return { status: 204 };
	const all = relatedOf(sandbox, module, parent, list);
	return childPage(ctx, p, 'data', all, {
		changed: (r) => r.changed,
		map: (r) => withParentName(sandbox, r.record as StoredRecord),
	});
});

// notes created on one parent: Parent_Id / $se_module come from the path
const createRecordNotes = operation('POST', '/:module/:recordId/Notes', opts, (ctx) => {
	const { store } = ctx.sandbox;
	const module = ctx.module!;
	if (!module.related_lists.some((l) => l.module === 'Notes')) {
		throw HttpError.invalidData(
			{ [paramKey(ctx)]: 'related_list' },
			'the related list given seems to be invalid',
		);
	}
	const items = wrapperList(ctx, 'data', NOTES_WRITE_MAX);
	const record = store.getRecord(module.api_name, ctx.params.recordId);
	if (!record)
		throw HttpError.invalidData({ id: ctx.params.recordId }, 'the id given seems to be invalid');
	return resultsReply(
		'data',
		201,
		eachItem(ctx, items, (item, index) => createNote(ctx, item, index, { module, record })),
	);
});

export function registerNotes(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	// cascade: deleting a record deletes its notes (through the record service: events fire)
	store.onChange((event) => {
		if (event.operation !== 'delete' || event.module === 'Notes') return;
		const gone = new Set(event.changes.map((c) => c.id));
		const module = sandbox.module('Notes');
		if (!module) return;
		const orphans: StoredRecord[] = [];
		for (const note of store.iterateRecords(module.api_name)) {
			const ref = note.Parent_Id as Json | undefined;
			if (
				ref &&
				gone.has(String(ref.id)) &&
				(note.$se_module === undefined || note.$se_module === event.module)
			)
				orphans.push(note);
		}
		if (orphans.length === 0) return;
		const user = sandbox.user();
		store.transaction(() => {
			for (const note of orphans)
				deleteRecord(sandbox, module, note, { v: event.v ?? 'v2.1', user, index: 0 });
		});
	});
	router.register([
		getNotes,
		createNotes,
		updateNotes,
		deleteNotes,
		getNote,
		updateNote,
		deleteNote,
		getRecordNotes,
		createRecordNotes,
	]);
}
