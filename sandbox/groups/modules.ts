/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console */
// Modules and fields metadata (wire-contract §5.7): GetModules, GetModule, UpdateModuleByAPIName,
// UpdateModuleById, GetFields, GetField.
import { HttpError } from '../errors.ts';
import { fieldJson, fieldId, moduleJson } from '../metadata.ts';
import type { StoredModule } from '../metadata.ts';
import type { Ctx, Router } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';
import { parseDateTime } from '../time.ts';
import { ifModifiedSince, requiredQuery, wrapperList } from '../wire.ts';

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
	if (!module) throw new HttpError('INVALID_MODULE', { param: name }, 'the module name given seems to be invalid');
	return module;
}

function findModuleByKey(sandbox: Sandbox, key: string): StoredModule | undefined {
	return storedModules(sandbox).find((m) => m.id === key || m.api_name.toLowerCase() === key.toLowerCase());
}

export function registerModules(router: Router, sandbox: Sandbox): void {
	router.get(
		'/settings/modules',
		(ctx) => {
			const modules = storedModules(sandbox);
			const since = ifModifiedSince(ctx);
			if (since !== undefined) {
				const changed = modules.filter((m) => (parseDateTime(m.modified_time) ?? 0) > since);
				if (changed.length === 0) return { status: 304 };
			}
			return { body: { modules: modules.map((m) => moduleJson(m, ctx.v)) } };
		},
		{ scopes: MODULES_READ },
	);

	router.get(
		'/settings/modules/:key',
		(ctx) => {
			const module = findModuleByKey(sandbox, ctx.params.key);
			if (!module) throw new HttpError('INVALID_MODULE', ctx.v === 'v2.1' ? { resource_path_index: 2 } : {});
			const json = moduleJson(module, ctx.v);
			return { body: { modules: [{ ...json, fields: module.fields.map((f, i) => fieldJson(module, f, i, ctx.v)) }] } };
		},
		{ scopes: MODULES_READ },
	);

	router.put(
		'/settings/modules/:key',
		(ctx) => {
			const module = findModuleByKey(sandbox, ctx.params.key);
			if (!module) throw new HttpError('INVALID_MODULE', ctx.v === 'v2.1' ? { resource_path_index: 2 } : {});
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
					if (typeof value !== 'number' || !Number.isInteger(value)) throw HttpError.invalidData({ api_name: key, expected_data_type: 'integer' });
					target[key] = value;
				}
			}
			updated.modified_time = sandbox.formatTime();
			updated.modified_by = { id: sandbox.user(ctx).id, name: sandbox.user(ctx).name };
			sandbox.store.putDoc('modules', module.api_name, updated);
			return {
				body: {
					modules: [
						{ code: 'SUCCESS', details: { id: module.id, api_name: module.api_name }, message: 'module updated successfully', status: 'success' },
					],
				},
			};
		},
		{ scopes: MODULES_UPDATE },
	);

	router.get(
		'/settings/fields',
		(ctx) => {
			const module = moduleParam(ctx);
			const type = ctx.q('type');
			// the sandbox has no unused fields: `type=unused` lists none
			if (type === 'unused') return { status: 204 };
			return { body: { fields: module.fields.map((f, i) => fieldJson(module, f, i, ctx.v)) } };
		},
		{ scopes: FIELDS_READ },
	);

	router.get(
		'/settings/fields/:id',
		(ctx) => {
			// `module` is optional on GetField (§5.7): field ids are unique across modules
			const modules = ctx.q('module') === undefined ? storedModules(sandbox) : [moduleParam(ctx)];
			for (const module of modules) {
				const index = module.fields.findIndex((_, i) => fieldId(module, i) === ctx.params.id);
				if (index !== -1) return { body: { fields: [fieldJson(module, module.fields[index], index, ctx.v)] } };
			}
			return { status: 204 };
		},
		{ scopes: FIELDS_READ },
	);
}
