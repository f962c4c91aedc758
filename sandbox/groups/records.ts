/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console */
// Records (wire-contract §5.1): GetRecords, GetRecord(+UsingExternalID), CreateRecords,
// UpdateRecords, UpdateRecord(+UsingExternalID), DeleteRecords, DeleteRecord(+UsingExternalID).
import { HttpError, errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import {
	createRecord,
	deleteRecord,
	findRecord,
	parseExternalHeader,
	pickFields,
	updateRecord,
	writeStatus,
} from '../records.ts';
import type { ExternalSpec, WriteOptions } from '../records.ts';
import type { Ctx, Router } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';
import type { Json } from '../store.ts';
import { idsParam, ifModifiedSince, pagedReply, paging, wrapperList } from '../wire.ts';

/** Record operations: CRM.modules.ALL or CRM.modules.{mod}.{ACCESS} (§2.3). */
export const RECORD_SCOPES = [['CRM.modules.{mod}.{ACCESS}']];

export const RECORD_WRITE_MAX = 100;

/** X-EXTERNAL of the request, or a thrown INVALID_DATA. */
export function externalOf(ctx: Ctx): ExternalSpec {
	const spec = parseExternalHeader(ctx.sandbox, ctx.header('x-external'), ctx.module);
	if ('code' in spec) throw new HttpError(spec.code, spec.details, spec.message);
	return spec;
}

export function writeOptions(ctx: Ctx, index: number, external?: ExternalSpec): WriteOptions {
	return { v: ctx.v, user: ctx.sandbox.user(ctx), index, external };
}

function fieldsParam(ctx: Ctx): string[] | undefined {
	const fields = ctx.list('fields');
	if (fields.length === 0) return undefined;
	const known = new Set(ctx.module!.fields.map((f) => f.api_name));
	const unknown = fields.find((f) => !known.has(f));
	if (unknown) throw HttpError.invalidData({ api_name: unknown, [ctx.v === 'v2.1' ? 'param_name' : 'param']: 'fields' }, 'invalid field name');
	return fields;
}

/** `converted` / `approved` tri-state filters (§3.2); converted leads are hidden by default. */
function visible(ctx: Ctx, record: Json): boolean {
	const converted = ctx.q('converted') ?? 'false';
	const isConverted = record.$converted === true;
	if (converted === 'false' && isConverted) return false;
	if (converted === 'true' && !isConverted) return false;
	return ctx.q('approved') !== 'false';
}

/** The record addressed by `:id` (an id, or an external value under X-EXTERNAL). */
function addressed(ctx: Ctx): { external: ExternalSpec; key: string } {
	const external = externalOf(ctx);
	if (ctx.header('x-external') && !external.field) {
		throw HttpError.invalidData({ api_name: 'X-EXTERNAL' }, 'the external field does not belong to the module');
	}
	return { external, key: ctx.params.id };
}

export function registerRecords(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	const opts = { scopes: RECORD_SCOPES };

	router.get(
		'/:module',
		(ctx) => {
			const module = ctx.module!;
			const p = paging(ctx);
			const fields = fieldsParam(ctx);
			const ids = idsParam(ctx, 'ids', 100, false);
			const sortBy = ctx.q('sort_by');
			if (sortBy && !module.fields.some((f) => f.api_name === sortBy)) {
				throw HttpError.invalidData({ [ctx.v === 'v2.1' ? 'param_name' : 'param']: 'sort_by' }, 'invalid sort_by field');
			}
			const sortOrder = ctx.q('sort_order');
			if (sortOrder && sortOrder !== 'asc' && sortOrder !== 'desc') {
				throw HttpError.invalidData({ [ctx.v === 'v2.1' ? 'param_name' : 'param']: 'sort_order' });
			}
			const since = ifModifiedSince(ctx);
			if (since !== undefined && (store.latestModified(module.api_name) ?? 0) <= since) return { status: 304 };
			const filtered = ctx.q('converted') !== undefined || ctx.q('approved') !== undefined || module.convertable;
			const listOptions = {
				ids,
				sortBy,
				sortOrder: (sortOrder ?? 'desc') as 'asc' | 'desc',
				modifiedSince: since,
			};
			let records: Json[];
			if (filtered) {
				records = store.listRecords(module.api_name, listOptions).filter((r) => visible(ctx, r));
				records = records.slice(p.offset, p.offset + p.perPage + 1);
			} else {
				records = store.listRecords(module.api_name, { ...listOptions, offset: p.offset, limit: p.perPage + 1 });
			}
			const extra = ctx.v === 'v2.1' && sortBy ? { sort_by: sortBy, sort_order: sortOrder ?? 'desc' } : {};
			return pagedReply('data', p, records.map((r) => pickFields(r, fields)), extra);
		},
		opts,
	);

	router.get(
		'/:module/:id',
		(ctx) => {
			const module = ctx.module!;
			const fields = fieldsParam(ctx);
			const { external, key } = addressed(ctx);
			const record = findRecord(sandbox, module, key, external);
			if (!record) return { status: 204 };
			const since = ifModifiedSince(ctx);
			if (since !== undefined && Date.parse(String(record.Modified_Time)) <= since) return { status: 304 };
			return { body: { data: [pickFields(record, fields)] } };
		},
		opts,
	);

	router.post(
		'/:module',
		(ctx) => {
			const module = ctx.module!;
			if (!module.creatable) throw new HttpError('NOT_SUPPORTED', { module: module.api_name }, 'the module does not support creating records');
			const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
			const external = externalOf(ctx);
			const results = store.transaction(() =>
				items.map((item, index) => createRecord(sandbox, module, item, writeOptions(ctx, index, external)).body),
			);
			return { status: writeStatus(results, 201), body: { data: results } };
		},
		opts,
	);

	const updateOne = (ctx: Ctx, item: unknown, index: number, key: string | undefined, external: ExternalSpec): Json | ErrorBody => {
		const module = ctx.module!;
		if (!item || typeof item !== 'object' || Array.isArray(item)) return errorItem('INVALID_DATA', {}, 'invalid data');
		const input = item as Json;
		const idKey = key ?? (external.field ? input[external.field] : input.id);
		if (idKey === undefined || idKey === null || idKey === '') {
			const apiName = external.field ?? 'id';
			return errorItem('MANDATORY_NOT_FOUND', ctx.v === 'v2.1' ? { api_name: apiName, json_path: `$.data[${index}].${apiName}` } : { api_name: apiName });
		}
		const existing = findRecord(sandbox, module, String(idKey), external);
		if (!existing) return errorItem('INVALID_DATA', { id: String(idKey) }, 'the id given seems to be invalid');
		const changes = { ...input };
		delete changes.id;
		if (external.field) delete changes[external.field];
		return updateRecord(sandbox, module, existing, changes, writeOptions(ctx, index, external)).body;
	};

	router.put(
		'/:module',
		(ctx) => {
			const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
			const external = externalOf(ctx);
			const results = store.transaction(() => items.map((item, index) => updateOne(ctx, item, index, undefined, external)));
			return { status: writeStatus(results, 200), body: { data: results } };
		},
		opts,
	);

	router.put(
		'/:module/:id',
		(ctx) => {
			const items = wrapperList(ctx, 'data', 1);
			const { external, key } = addressed(ctx);
			const results = store.transaction(() => items.map((item, index) => updateOne(ctx, item, index, key, external)));
			return { status: writeStatus(results, 200), body: { data: results } };
		},
		opts,
	);

	const deleteOne = (ctx: Ctx, key: string, external: ExternalSpec): Json | ErrorBody => {
		const module = ctx.module!;
		const record = findRecord(sandbox, module, key, external);
		if (!record) return errorItem('INVALID_DATA', { id: key }, 'the id given seems to be invalid');
		return deleteRecord(sandbox, module, record, writeOptions(ctx, 0, external));
	};

	router.delete(
		'/:module',
		(ctx) => {
			const module = ctx.module!;
			if (!module.deletable) throw new HttpError('NOT_SUPPORTED', { module: module.api_name }, 'the module does not support deleting records');
			const external = externalOf(ctx);
			const ids = external.field ? ctx.list('ids') : idsParam(ctx, 'ids', 100, true)!;
			if (ids.length === 0) throw HttpError.requiredParam('ids', ctx.v);
			if (ids.length > 100) throw HttpError.limit(100, 'ids');
			const results = store.transaction(() => ids.map((id) => deleteOne(ctx, id, external)));
			return { status: writeStatus(results, 200), body: { data: results } };
		},
		opts,
	);

	router.delete(
		'/:module/:id',
		(ctx) => {
			const { external, key } = addressed(ctx);
			const result = store.transaction(() => deleteOne(ctx, key, external));
			return { status: writeStatus([result], 200), body: { data: [result] } };
		},
		opts,
	);
}
