// Modules and fields metadata (docs/protocol.md §5.7): GetModules, GetModule, UpdateModuleByAPIName,
// UpdateModuleById, GetFields, GetField. Seeds the file-upload field `Contract_File` of the custom
// module Projects with a contract on three demo projects (GetFieldAttachments, §5.4, is served
// by attachments.ts from the same `field_attachments` documents).
import { HttpError } from '../errors.ts';
import { putFile } from '../files.ts';
import { fieldJson, fieldId, moduleJson } from '../metadata.ts';
import type { StoredModule } from '../metadata.ts';
import type { Ctx, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { MODULES } from '../catalogue/modules.ts';
import type { FieldDef } from '../catalogue/modules.ts';
import { seedOnce } from './shared.ts';
import type { Json, StoredRecord } from '../store.ts';
import { parseDateTime } from '../time.ts';
import { ifModifiedSince, requiredQuery, wrapperList } from '../wire.ts';
import type { FieldAttachmentDoc } from './attachments.ts';

const MODULES_READ = [['CRM.settings.modules.READ']];
const MODULES_UPDATE = [['CRM.settings.modules.UPDATE']];
const FIELDS_READ = [['CRM.settings.fields.READ']];

export function storedModules(sandbox: Sandbox): StoredModule[] {
	return sandbox.store.docs<StoredModule>('modules');
}

/** The module named by a `module` query parameter (case-insensitive); 400 INVALID_MODULE otherwise. */
export function moduleParam(ctx: Ctx, name = 'module'): StoredModule {
	const value = requiredQuery(ctx, name);
	const module = ctx.sandbox.module(value) as StoredModule | undefined;
	if (!module)
		throw new HttpError(
			'INVALID_MODULE',
			{ param: name },
			'the module name given seems to be invalid',
		);
	return module;
}

/**
 * A settings entity addressed by an unknown id (layouts, custom views, wizards, rules, templates,
 * pipelines): 400 INVALID_DATA `the id given seems to be invalid` (**assumed**; fields and related
 * lists answer 204 instead, their code sets have no INVALID_DATA). `index` = path segment of the id.
 */
export function unknownId(ctx: Ctx, id: string, index = 2): HttpError {
	return new HttpError(
		'INVALID_DATA',
		ctx.v === 'v2.1' ? { id, resource_path_index: index } : { id },
		'the id given seems to be invalid',
	);
}

/** `{api_name, id}` reference to a module, as settings entities carry it. */
export function moduleRef(module: StoredModule): Json {
	return { api_name: module.api_name, id: module.id };
}

/** `{id, name}` of a user (the admin when the id is unknown). */
export function userRef(sandbox: Sandbox, id?: string): Json {
	const users = sandbox.store.docs<{ id: string; full_name: string }>('users');
	const user = users.find((u) => u.id === id) ?? users[0];
	return { id: user.id, name: user.full_name };
}

/** Id of a demo user by first name (seeded settings name their owners this way); the admin otherwise. */
export function demoUserId(sandbox: Sandbox, firstName: string): string {
	const users = sandbox.store.docs<{ id: string; first_name?: string }>('users');
	return (users.find((u) => u.first_name === firstName) ?? users[0]).id;
}

function findModuleByKey(sandbox: Sandbox, key: string): StoredModule | undefined {
	return storedModules(sandbox).find(
		(m) => m.id === key || m.api_name.toLowerCase() === key.toLowerCase(),
	);
}

const FILE_UPLOAD_FIELD: FieldDef = {
	api_name: 'Contract_File',
	field_label: 'Contract File',
	data_type: 'fileupload',
	custom_field: true,
};

/**
 * Seeds the file-upload field of Projects (appended to the stored module, so the other field ids
 * stay put) and a signed contract on the first three demo projects. The record keeps its
 * Modified_Time: the file is part of the demo data, not a later change.
 */
function seedContractFiles(sandbox: Sandbox): void {
	const { store } = sandbox;
	const projects = store.doc<StoredModule>('modules', 'Projects');
	if (!projects) return;
	if (!projects.fields.some((f) => f.data_type === 'fileupload')) {
		store.putDoc('modules', projects.api_name, {
			...projects,
			fields: [...projects.fields, FILE_UPLOAD_FIELD],
		});
	}
	const records = store.listRecords('Projects', { limit: 3 });
	records.forEach((record, i) => {
		const fileName = `contract-${String(record.Project_Code ?? i + 1).toLowerCase()}.pdf`;
		const data = Buffer.from(
			`%PDF-1.4\n% Sandbox contract for ${String(record.Name ?? record.id)}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
		);
		const file = putFile(sandbox, { name: fileName, contentType: 'application/pdf', data });
		const doc: FieldAttachmentDoc = {
			id: store.nextId(),
			module: 'Projects',
			record_id: record.id,
			field: FILE_UPLOAD_FIELD.api_name,
			file_id: file.id,
			File_Name: fileName,
		};
		store.putDoc('field_attachments', doc.id, doc);
		const value = [
			{ attachment_Id: doc.id, file_Name: fileName, file_Size: String(data.length), extn: 'pdf' },
		];
		const updated: StoredRecord = { ...record, [FILE_UPLOAD_FIELD.api_name]: value };
		const modified = parseDateTime(record.Modified_Time) ?? sandbox.now();
		store.replaceRecord('Projects', updated, modified, {}, { silent: true });
	});
}

/**
 * Stores seeded before the API's mandatory fields were the service's system-mandatory ones (and
 * before the standard related lists were complete) get the current field flags, the fields they
 * lack and the related lists of the seed definitions; labels and other module settings stay.
 */
function refreshStandardMetadata(sandbox: Sandbox): void {
	for (const def of MODULES) {
		const stored = sandbox.store.doc<StoredModule>('modules', def.api_name);
		if (!stored) continue;
		const seeded = new Map(def.fields.map((f) => [f.api_name, f]));
		const fields = stored.fields.map((f) => {
			const current = seeded.get(f.api_name);
			if (!current) return f;
			const next: FieldDef = { ...f };
			delete next.mandatory;
			delete next.system_mandatory;
			delete next.layout_required;
			return { ...next, ...pickFlags(current) };
		});
		for (const f of def.fields) if (!fields.some((x) => x.api_name === f.api_name)) fields.push(f);
		sandbox.store.putDoc('modules', def.api_name, {
			...stored,
			fields,
			related_lists: def.related_lists,
		});
	}
}

function pickFlags(field: FieldDef): Partial<FieldDef> {
	const flags: Partial<FieldDef> = {};
	if (field.mandatory) flags.mandatory = true;
	if (field.system_mandatory) flags.system_mandatory = true;
	if (field.layout_required) flags.layout_required = true;
	return flags;
}

export const getModules = operation('GET', '/settings/modules', { scopes: MODULES_READ }, (ctx) => {
	const { sandbox } = ctx;
	const modules = storedModules(sandbox);
	const since = ifModifiedSince(ctx);
	if (since !== undefined) {
		const changed = modules.filter((m) => (parseDateTime(m.modified_time) ?? 0) > since);
		if (changed.length === 0) return { status: 304 };
	}
	return { body: { modules: modules.map((m) => moduleJson(m, ctx.v)) } };
});

const getModule = operation('GET', '/settings/modules/:key', { scopes: MODULES_READ }, (ctx) => {
	const { sandbox } = ctx;
	const module = findModuleByKey(sandbox, ctx.params.key);
	if (!module)
		throw new HttpError('INVALID_MODULE', ctx.v === 'v2.1' ? { resource_path_index: 2 } : {});
	const json = moduleJson(module, ctx.v);
	return {
		body: {
			modules: [{ ...json, fields: module.fields.map((f, i) => fieldJson(module, f, i, ctx.v)) }],
		},
	};
});

const updateModuleByAPIName = operation(
	'PUT',
	'/settings/modules/:key',
	{ scopes: MODULES_UPDATE },
	(ctx) => {
		const { sandbox } = ctx;
		const module = findModuleByKey(sandbox, ctx.params.key);
		if (!module)
			throw new HttpError('INVALID_MODULE', ctx.v === 'v2.1' ? { resource_path_index: 2 } : {});
		const [item] = wrapperList(ctx, 'modules', 1) as Array<Record<string, unknown>>;
		if (!item || typeof item !== 'object') throw HttpError.invalidData({ api_name: 'modules' });
		const editable = ['singular_label', 'plural_label', 'sequence_number', 'visibility'] as const;
		const updated: StoredModule = { ...module };
		const target = updated as unknown as Record<string, unknown>;
		for (const key of Object.keys(item)) {
			if (key === 'id' || key === 'api_name') continue;
			if (!(editable as readonly string[]).includes(key)) {
				throw HttpError.invalidData({ api_name: key }, 'the field cannot be updated');
			}
			const value = item[key];
			if (key === 'singular_label' || key === 'plural_label') {
				if (typeof value !== 'string' || value.length === 0 || value.length > 25) {
					throw HttpError.invalidData({ api_name: key, maximum_length: 25 });
				}
				target[key] = value;
			} else {
				if (typeof value !== 'number' || !Number.isInteger(value))
					throw HttpError.invalidData({ api_name: key, expected_data_type: 'integer' });
				target[key] = value;
			}
		}
		updated.modified_time = sandbox.formatTime();
		updated.modified_by = { id: sandbox.user(ctx).id, name: sandbox.user(ctx).name };
		sandbox.store.putDoc('modules', module.api_name, updated);
		return {
			body: {
				modules: [
					{
						code: 'SUCCESS',
						details: { id: module.id, api_name: module.api_name },
						message: 'module updated successfully',
						status: 'success',
					},
				],
			},
		};
	},
);

export const getFields = operation('GET', '/settings/fields', { scopes: FIELDS_READ }, (ctx) => {
	const module = moduleParam(ctx);
	const type = ctx.q('type');
	// the sandbox has no unused fields: `type=unused` lists none
	if (type === 'unused') return { status: 204 };
	return { body: { fields: module.fields.map((f, i) => fieldJson(module, f, i, ctx.v)) } };
});

const getField = operation('GET', '/settings/fields/:id', { scopes: FIELDS_READ }, (ctx) => {
	const { sandbox } = ctx;
	// `module` is optional on GetField (§5.7): field ids are unique across modules
	const modules = ctx.q('module') === undefined ? storedModules(sandbox) : [moduleParam(ctx)];
	for (const module of modules) {
		const index = module.fields.findIndex((_, i) => fieldId(module, i) === ctx.params.id);
		if (index !== -1)
			return { body: { fields: [fieldJson(module, module.fields[index], index, ctx.v)] } };
	}
	return { status: 204 };
});

export function registerModules(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'field_attachments', seedContractFiles);
	seedOnce(sandbox, 'system_mandatory_fields', refreshStandardMetadata);
	router.register([getModules, getModule, updateModuleByAPIName, getFields, getField]);
}
