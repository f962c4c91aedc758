import type { ModuleDef } from '../../catalogue/modules.ts';
import { HttpError } from '../../errors.ts';
import { parseCallback, saveJob, scheduleStep } from '../../jobs.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import type { Ctx } from '../../types.ts';
import { moduleScope } from '../bulk-read/shared.ts';
import { knobOr } from '../shared.ts';
import {
	BULK_CREATE,
	csvOf,
	findByFields,
	KNOWN_ENCODINGS,
	moduleOf,
	peekModules,
	stepper,
	WRITE_FILES,
	WRITE_JOBS,
} from './shared.ts';
import type {
	BulkWriteJob,
	FieldMapping,
	UploadedFile,
	WriteOperation,
	WriteResource,
} from './shared.ts';

function parseResource(
	ctx: Ctx,
	operation: WriteOperation,
	value: unknown,
	index: number,
): WriteResource {
	const { sandbox } = ctx;
	const { store } = sandbox;
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw HttpError.invalidData({ api_name: 'resource', index, expected_data_type: 'jsonobject' });
	}
	const r = value as Json;
	if (r.type === undefined)
		throw new HttpError(
			'MISSING_REQUIRED_KEY',
			{ api_name: 'type', index },
			'required key not found in request body',
		);
	if (r.type !== 'data')
		throw HttpError.invalidData({ api_name: 'type', index }, 'resource type must be data');
	if (r.module === undefined)
		throw new HttpError(
			'MISSING_REQUIRED_KEY',
			{ api_name: 'module', index },
			'required key not found in request body',
		);
	const module = moduleOf(sandbox, ctx.v, r.module);
	if (r.file_id === undefined || r.file_id === null || r.file_id === '') {
		throw new HttpError(
			'MISSING_REQUIRED_KEY',
			{ api_name: 'file_id', index },
			'required key not found in request body',
		);
	}
	const fileId = String(r.file_id);
	const file = store.doc<UploadedFile>(WRITE_FILES, fileId);
	if (!file) throw new HttpError('INVALID_FILE_ID', { file_id: fileId }, 'the file id is invalid');
	const header = (csvOf(sandbox, file, 'utf8')[0] ?? []).map((h) => h.trim());
	const fields = new Map(module.fields.map((f) => [f.api_name, f]));

	let mappings: FieldMapping[];
	if (r.field_mappings !== undefined && r.field_mappings !== null) {
		if (!Array.isArray(r.field_mappings))
			throw HttpError.invalidData({ api_name: 'field_mappings', expected_data_type: 'jsonarray' });
		const maxColumns = knobOr(sandbox.config.knobs.bulkWriteMaxColumns, 200);
		if (r.field_mappings.length > maxColumns)
			throw new HttpError(
				'HEADER_LIMIT_EXCEEDED',
				{ limit: maxColumns },
				'the header limit has been exceeded',
			);
		mappings = (r.field_mappings as unknown[]).map((m) => {
			const mapping = (m && typeof m === 'object' ? m : {}) as Json;
			const apiName = mapping.api_name;
			if (typeof apiName !== 'string' || !apiName) {
				throw new HttpError(
					'MISSING_REQUIRED_KEY',
					{ api_name: 'field_mappings.api_name' },
					'required key not found in request body',
				);
			}
			const field = apiName === 'id' ? undefined : fields.get(apiName);
			if (apiName !== 'id' && !field)
				throw new HttpError(
					'INVALID_FIELD_NAME',
					{ api_name: apiName },
					'the field name is invalid',
				);
			if (field?.read_only)
				throw new HttpError('INVALID_FIELD', { api_name: apiName }, 'the field cannot be imported');
			if (mapping.index === undefined || mapping.index === null) {
				throw new HttpError(
					'MISSING_REQUIRED_KEY',
					{ api_name: 'field_mappings.index', field: apiName },
					'required key not found in request body',
				);
			}
			const columnIndex = Number(mapping.index);
			if (!Number.isInteger(columnIndex) || columnIndex < 0 || columnIndex >= header.length) {
				throw new HttpError(
					'COLUMN_INDEX_NOT_FOUND',
					{ api_name: apiName, index: mapping.index },
					'the column index is not found',
				);
			}
			let findBy: string | null = null;
			if (mapping.find_by !== undefined && mapping.find_by !== null && mapping.find_by !== '') {
				findBy = String(mapping.find_by);
				const target = field?.lookup_module ? sandbox.module(field.lookup_module) : undefined;
				if (!target || (findBy !== 'id' && !target.fields.some((f) => f.api_name === findBy))) {
					throw new HttpError(
						'INVALID_FIELD',
						{ api_name: apiName, find_by: findBy },
						'the find_by field of the lookup is invalid',
					);
				}
			}
			let defaultValue: { value: unknown } | null = null;
			if (mapping.default_value !== undefined && mapping.default_value !== null) {
				const dv = mapping.default_value;
				if (typeof dv !== 'object' || Array.isArray(dv) || !('value' in (dv as Json))) {
					throw HttpError.invalidData({
						api_name: 'default_value',
						expected_data_type: 'jsonobject',
					});
				}
				defaultValue = { value: (dv as Json).value };
			}
			const format =
				mapping.format === undefined || mapping.format === null || mapping.format === ''
					? null
					: String(mapping.format);
			return {
				api_name: apiName,
				index: columnIndex,
				format,
				find_by: findBy,
				default_value: defaultValue,
			};
		});
	} else {
		// without field_mappings, the CSV header names are field API names (read-only columns skipped)
		mappings = [];
		header.forEach((name, columnIndex) => {
			const apiName = /^id$/i.test(name) ? 'id' : name;
			const field = apiName === 'id' ? undefined : fields.get(apiName);
			if (apiName !== 'id' && !field)
				throw new HttpError(
					'INVALID_FIELD_NAME',
					{ api_name: name, index: columnIndex },
					'the field name is invalid',
				);
			if (field?.read_only) return;
			mappings.push({
				api_name: apiName,
				index: columnIndex,
				format: null,
				find_by: null,
				default_value: null,
			});
		});
	}
	const seen = new Set<string>();
	for (const m of mappings) {
		if (seen.has(m.api_name))
			throw new HttpError(
				'DUPLICATE_DATA',
				{ api_name: m.api_name },
				'the field is mapped more than once',
			);
		seen.add(m.api_name);
	}
	let findBy: string | undefined;
	if (operation !== 'insert') {
		if (r.find_by === undefined || r.find_by === null || r.find_by === '') {
			throw new HttpError(
				'MISSING_REQUIRED_KEY',
				{ api_name: 'find_by' },
				'required key not found in request body',
			);
		}
		findBy = String(r.find_by);
		if (!findByFields(module).has(findBy)) {
			throw new HttpError(
				'INVALID_FIELD',
				{ api_name: 'find_by', value: findBy },
				'the find_by field must be id or a unique field',
			);
		}
		if (!seen.has(findBy))
			throw new HttpError(
				'MANDATORY_FIELDS_NOT_MAPPED',
				{ api_name: findBy },
				'all mandatory fields are not mapped',
			);
	}
	if (operation !== 'update') {
		const missing = module.fields.find((f) => f.mandatory && !f.read_only && !seen.has(f.api_name));
		if (missing)
			throw new HttpError(
				'MANDATORY_FIELDS_NOT_MAPPED',
				{ api_name: missing.api_name },
				'all mandatory fields are not mapped',
			);
	}
	if (r.ignore_empty !== undefined && typeof r.ignore_empty !== 'boolean') {
		throw HttpError.invalidData({ api_name: 'ignore_empty', expected_data_type: 'boolean' });
	}
	return {
		type: 'data',
		module: module.api_name,
		module_id: String((module as ModuleDef & { id?: string }).id ?? ''),
		file_id: fileId,
		...(findBy ? { find_by: findBy } : {}),
		ignore_empty: r.ignore_empty === true,
		field_mappings: mappings,
		status: 'ADDED',
		file: {
			status: 'ADDED',
			name: file.name,
			added_count: 0,
			updated_count: 0,
			skipped_count: 0,
			total_count: 0,
		},
		$processed: 0,
		$chunks: 0,
	};
}

function moduleWrite(module: ModuleDef, access: string): string[] {
	const sub = moduleScope(module);
	return [
		'CRM.modules.ALL',
		`CRM.modules.${sub}.ALL`,
		`CRM.modules.${sub}.WRITE`,
		`CRM.modules.${sub}.${access}`,
	];
}

/** CreateBulkWriteJob: POST /crm/bulk/{v}/write (docs/protocol.md §5.11, jobs §8.2). */
export const createBulkWriteJob = operation(
	'POST',
	'/write',
	{
		root: 'bulk',
		scopes: (ctx) => {
			const { operation, modules } = peekModules(ctx.sandbox, ctx);
			const op = operation.toLowerCase();
			const rules = [BULK_CREATE];
			for (const module of modules) {
				if (op !== 'update') rules.push(moduleWrite(module, 'CREATE'));
				if (op !== 'insert') rules.push(moduleWrite(module, 'UPDATE'));
			}
			return rules;
		},
	},
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const body = ctx.json();
		if (body.operation === undefined || body.operation === null) {
			throw new HttpError(
				'MISSING_REQUIRED_KEY',
				{ api_name: 'operation' },
				'required key not found in request body',
			);
		}
		const operation = String(body.operation).toLowerCase() as WriteOperation;
		if (!['insert', 'update', 'upsert'].includes(operation)) {
			throw HttpError.invalidData(
				{ api_name: 'operation' },
				'operation must be insert, update or upsert',
			);
		}
		if (body.resource === undefined || body.resource === null) {
			throw new HttpError(
				'MISSING_REQUIRED_KEY',
				{ api_name: 'resource' },
				'required key not found in request body',
			);
		}
		if (!Array.isArray(body.resource) || body.resource.length === 0) {
			throw HttpError.invalidData({ api_name: 'resource', expected_data_type: 'jsonarray' });
		}
		const encoding =
			body.character_encoding === undefined || body.character_encoding === null
				? 'UTF-8'
				: String(body.character_encoding);
		if (!KNOWN_ENCODINGS[encoding.toLowerCase()])
			throw HttpError.invalidData(
				{ api_name: 'character_encoding' },
				'the character encoding is not supported',
			);
		const resources = (body.resource as unknown[]).map((r, i) =>
			parseResource(ctx, operation, r, i),
		);
		const callback = parseCallback(body.callback);
		const running = store
			.docs<BulkWriteJob>(WRITE_JOBS)
			.filter((j) => j.status === 'ADDED' || j.status === 'IN PROGRESS').length;
		if (running >= knobOr(sandbox.config.knobs.bulkWriteConcurrency, 5))
			throw new HttpError('TOO_MANY_REQUESTS');
		const user = sandbox.user(ctx);
		const job: BulkWriteJob = {
			id: store.nextId(),
			$step: 0,
			operation,
			status: 'ADDED',
			character_encoding: encoding,
			created_by: { id: user.id, name: user.name },
			created_time: sandbox.formatTime(),
			v: ctx.v,
			...(callback ? { callback } : {}),
			resource: resources,
		};
		saveJob(sandbox, WRITE_JOBS, job);
		scheduleStep(sandbox, WRITE_JOBS, job.id, stepper(sandbox));
		return {
			status: 201,
			body: {
				status: 'success',
				code: 'SUCCESS',
				message: 'success',
				details: { id: job.id, created_by: job.created_by },
			},
		};
	},
);
