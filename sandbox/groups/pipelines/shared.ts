// Helpers shared by the pipeline operations (docs/protocol.md §5.8): the seed, the Deals layout
// and stage lookups, the checks and writes of a pipeline item and of a transfer.
import type { ErrorBody } from '../../errors.ts';
import { HttpError, errorItem } from '../../errors.ts';
import type { StoredModule } from '../../metadata.ts';
import { fieldId } from '../../metadata.ts';
import { updateRecord } from '../../records.ts';
import type { Ctx } from '../../router.ts';
import type { Json } from '../../store.ts';
import type { Sandbox } from '../../types.ts';
import { requiredQuery } from '../../wire.ts';
import type { Layout } from '../layouts.ts';
import { findLayout, layoutsOf } from '../layouts.ts';

export const PIPELINE_WRITE_MAX = 100;
export const scopes = (access: string) => [[`CRM.settings.pipeline.${access}`]];

interface PipelineDoc {
	id: string;
	layout_id: string;
	display_value: string;
	default: boolean;
	/** stage ids in pipeline order */
	stages: string[];
	created_time: string;
	modified_time: string;
}

export interface Stage {
	id: string;
	display_value: string;
	forecast_category: Json;
	forecast_type: 'Open' | 'Closed Won' | 'Closed Lost';
	probability: number;
}

const FORECAST = {
	Pipeline: { name: 'Pipeline', id: '4876876000000033001' },
	Closed: { name: 'Closed', id: '4876876000000033002' },
	Omitted: { name: 'Omitted', id: '4876876000000033003' },
};

function dealsModule(sandbox: Sandbox): StoredModule {
	const deals = sandbox.store.doc<StoredModule>('modules', 'Deals');
	if (!deals) throw new HttpError('INTERNAL_ERROR');
	return deals;
}

/** The stage catalogue: every value of the Deals `Stage` picklist. */
export function dealStages(sandbox: Sandbox): Stage[] {
	const deals = dealsModule(sandbox);
	const index = deals.fields.findIndex((f) => f.api_name === 'Stage');
	const values = deals.fields[index]?.pick_list_values ?? [];
	const open = values.filter((v) => !v.startsWith('Closed'));
	const base = fieldId(deals, index);
	return values.map((value, i) => {
		const won = value === 'Closed Won';
		const lost = value.startsWith('Closed') && !won;
		const position = open.indexOf(value);
		return {
			id: `${base.slice(0, 14)}7${String(i).padStart(4, '0')}`,
			display_value: value,
			forecast_category: won ? FORECAST.Closed : lost ? FORECAST.Omitted : FORECAST.Pipeline,
			forecast_type: won ? 'Closed Won' : lost ? 'Closed Lost' : 'Open',
			probability: won ? 100 : lost ? 0 : Math.round(((position + 1) / (open.length + 1)) * 100),
		};
	});
}

export function pipelinesOf(sandbox: Sandbox, layoutId: string): PipelineDoc[] {
	return sandbox.store.docs<PipelineDoc>('pipelines').filter((p) => p.layout_id === layoutId);
}

export function pipelineJson(pipeline: PipelineDoc, stages: Stage[]): Json {
	const byId = new Map(stages.map((s) => [s.id, s]));
	return {
		id: pipeline.id,
		display_value: pipeline.display_value,
		actual_value: pipeline.display_value,
		default: pipeline.default,
		child_available: false,
		parent: null,
		maps: pipeline.stages
			.map((id) => byId.get(id))
			.filter((s): s is Stage => !!s)
			.map((s, i) => ({
				id: s.id,
				display_value: s.display_value,
				actual_value: s.display_value,
				sequence_number: i + 1,
				forecast_category: s.forecast_category,
				forecast_type: s.forecast_type,
				probability: s.probability,
				colour_code: null,
			})),
	};
}

/** Keeps the Deals `Pipeline` picklist equal to the pipeline names (in creation order). */
function syncPipelinePicklist(sandbox: Sandbox): void {
	const deals = dealsModule(sandbox);
	const names = [
		...new Set(sandbox.store.docs<PipelineDoc>('pipelines').map((p) => p.display_value)),
	];
	const fields = deals.fields.map((f) =>
		f.api_name === 'Pipeline' ? { ...f, pick_list_values: names } : f,
	);
	const before = deals.fields.find((f) => f.api_name === 'Pipeline')?.pick_list_values ?? [];
	if (JSON.stringify(before) === JSON.stringify(names)) return;
	sandbox.store.putDoc('modules', deals.api_name, {
		...deals,
		fields,
		modified_time: sandbox.formatTime(),
	});
}

export function seedPipelines(sandbox: Sandbox): void {
	const deals = sandbox.store.doc<StoredModule>('modules', 'Deals');
	if (!deals) return;
	const stages = dealStages(sandbox);
	const id = (name: string) => stages.find((s) => s.display_value === name)!.id;
	const [standard, partner] = layoutsOf(deals);
	const time = sandbox.formatTime();
	const put = (layout: Layout, name: string, isDefault: boolean, stageIds: string[]) => {
		const doc: PipelineDoc = {
			id: sandbox.store.nextId(),
			layout_id: layout.id,
			display_value: name,
			default: isDefault,
			stages: stageIds,
			created_time: time,
			modified_time: time,
		};
		sandbox.store.putDoc('pipelines', doc.id, doc);
	};
	put(
		standard,
		'Standard',
		true,
		stages.map((s) => s.id),
	);
	put(
		standard,
		'Enterprise',
		false,
		[
			'Qualification',
			'Needs Analysis',
			'Value Proposition',
			'Proposal/Price Quote',
			'Negotiation/Review',
			'Closed Won',
			'Closed Lost',
		].map(id),
	);
	if (partner)
		put(
			partner,
			'Standard',
			true,
			['Qualification', 'Proposal/Price Quote', 'Closed Won', 'Closed Lost'].map(id),
		);
	syncPipelinePicklist(sandbox);
}

// ---- request helpers --------------------------------------------------------------------------

/** `layout_id`: required, a Deals layout. */
export function dealsLayout(ctx: Ctx): Layout {
	const value = requiredQuery(ctx, 'layout_id');
	const deals = dealsModule(ctx.sandbox);
	const layout = /^\d+$/.test(value) ? findLayout(ctx.sandbox, value, deals) : undefined;
	if (!layout)
		throw HttpError.invalidData(
			{ param_name: 'layout_id', id: value },
			'the layout_id given seems to be invalid',
		);
	return layout;
}

const idText = (value: unknown): string | undefined => {
	if (typeof value === 'string' || typeof value === 'number') return String(value);
	if (value && typeof value === 'object' && 'id' in value) return idText((value as Json).id);
	return undefined;
};

interface ItemContext {
	index: number;
	key: string;
}

function itemError(
	c: ItemContext,
	code: string,
	apiName: string,
	extra: Json = {},
	message?: string,
): ErrorBody {
	return errorItem(
		code,
		{ api_name: apiName, json_path: `$.${c.key}[${c.index}].${apiName}`, ...extra },
		message,
	);
}

/** Stage ids of `maps`, in sequence order; an error item when a map names no known stage. */
function resolveMaps(maps: unknown, stages: Stage[], c: ItemContext): string[] | ErrorBody {
	if (!Array.isArray(maps) || maps.length === 0) return itemError(c, 'MANDATORY_NOT_FOUND', 'maps');
	const resolved: Array<{ id: string; seq: number }> = [];
	for (let i = 0; i < maps.length; i++) {
		const map = maps[i] as Json;
		const id = map && typeof map === 'object' ? idText(map.id) : undefined;
		const name =
			map && typeof map === 'object' ? (map.display_value ?? map.actual_value) : undefined;
		const stage = stages.find(
			(s) =>
				(id !== undefined && s.id === id) ||
				(id === undefined && typeof name === 'string' && s.display_value === name),
		);
		if (!stage) {
			return errorItem(
				'INVALID_DATA',
				{ api_name: 'maps', json_path: `$.${c.key}[${c.index}].maps[${i}]`, ...(id ? { id } : {}) },
				'pipeline does not contain the stage',
			);
		}
		if (resolved.some((r) => r.id === stage.id)) {
			return errorItem(
				'DUPLICATE_DATA',
				{ api_name: 'maps', json_path: `$.${c.key}[${c.index}].maps[${i}]`, id: stage.id },
				'duplicate data',
			);
		}
		const seq = typeof map.sequence_number === 'number' ? map.sequence_number : i + 1;
		resolved.push({ id: stage.id, seq });
	}
	return resolved.sort((a, b) => a.seq - b.seq).map((r) => r.id);
}

function success(message: string, details: Json): Json {
	return { code: 'SUCCESS', details, message, status: 'success' };
}

/** Renames the `Pipeline` value of deals when no pipeline keeps the old name. */
function renameDeals(ctx: Ctx, from: string, to: string): void {
	const { sandbox } = ctx;
	if (sandbox.store.docs<PipelineDoc>('pipelines').some((p) => p.display_value === from)) return;
	const deals = dealsModule(sandbox);
	for (const record of [...sandbox.store.iterateRecords('Deals')]) {
		if (record.Pipeline !== from) continue;
		updateRecord(
			sandbox,
			deals,
			record,
			{ Pipeline: to },
			{ v: ctx.v, user: sandbox.user(ctx), index: 0, guards: [] },
		);
	}
}

export function writePipeline(
	ctx: Ctx,
	layout: Layout,
	item: unknown,
	c: ItemContext,
	mode: 'create' | 'update',
	pathId?: string,
): Json | ErrorBody {
	const { sandbox } = ctx;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = item as Json;
	const stages = dealStages(sandbox);
	const siblings = pipelinesOf(sandbox, layout.id);
	let current: PipelineDoc | undefined;
	if (mode === 'update') {
		const id = pathId ?? idText(input.id);
		if (!id) return itemError(c, 'MANDATORY_NOT_FOUND', 'id');
		current = siblings.find((p) => p.id === id);
		if (!current)
			return errorItem(
				'INVALID_DATA',
				{ id, json_path: `$.${c.key}[${c.index}].id` },
				'the id given seems to be invalid',
			);
	}
	const name = input.display_value;
	if (name !== undefined || mode === 'create') {
		if (typeof name !== 'string' || name.trim() === '')
			return itemError(c, 'MANDATORY_NOT_FOUND', 'display_value');
		if (name.length > 120)
			return itemError(c, 'INVALID_DATA', 'display_value', { maximum_length: 120 });
		const clash = siblings.find(
			(p) => p.id !== current?.id && p.display_value.toLowerCase() === name.trim().toLowerCase(),
		);
		if (clash) return itemError(c, 'DUPLICATE_DATA', 'display_value', { id: clash.id });
	}
	if (input.default !== undefined && typeof input.default !== 'boolean') {
		return itemError(c, 'INVALID_DATA', 'default', { expected_data_type: 'boolean' });
	}
	if (current?.default && input.default === false) {
		return itemError(c, 'INVALID_DATA', 'default', {}, 'the layout needs a default pipeline');
	}
	let stageIds: string[] | undefined;
	if (input.maps !== undefined || mode === 'create') {
		const resolved = resolveMaps(input.maps, stages, c);
		if (!Array.isArray(resolved)) return resolved;
		stageIds = resolved;
	}
	const time = sandbox.formatTime();
	const doc: PipelineDoc = current
		? { ...current, modified_time: time }
		: {
				id: sandbox.store.nextId(),
				layout_id: layout.id,
				display_value: '',
				default: false,
				stages: [],
				created_time: time,
				modified_time: time,
			};
	const oldName = doc.display_value;
	if (typeof name === 'string') doc.display_value = name.trim();
	if (stageIds) doc.stages = stageIds;
	const makeDefault = input.default === true || (mode === 'create' && siblings.length === 0);
	if (makeDefault) {
		doc.default = true;
		for (const other of siblings) {
			if (other.id !== doc.id && other.default)
				sandbox.store.putDoc('pipelines', other.id, {
					...other,
					default: false,
					modified_time: time,
				});
		}
	}
	sandbox.store.putDoc('pipelines', doc.id, doc);
	syncPipelinePicklist(sandbox);
	if (current && oldName !== doc.display_value) {
		renameDeals(ctx, oldName, doc.display_value);
		syncPipelinePicklist(sandbox);
	}
	return success(mode === 'create' ? 'Pipeline created' : 'Pipeline updated', { id: doc.id });
}

export function transfer(
	ctx: Ctx,
	layout: Layout,
	item: unknown,
	c: ItemContext,
): Json | ErrorBody {
	const { sandbox } = ctx;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = item as Json;
	const pipeline = input.pipeline as Json | undefined;
	if (!pipeline || typeof pipeline !== 'object')
		return itemError(c, 'MANDATORY_NOT_FOUND', 'pipeline');
	const siblings = pipelinesOf(sandbox, layout.id);
	const fromId = idText(pipeline.from);
	const toId = idText(pipeline.to);
	const from = siblings.find((p) => p.id === fromId);
	const to = siblings.find((p) => p.id === toId);
	const path = (key: string) => ({
		api_name: key,
		json_path: `$.${c.key}[${c.index}].pipeline.${key}`,
	});
	if (!fromId) return errorItem('MANDATORY_NOT_FOUND', path('from'));
	if (!from)
		return errorItem(
			'INVALID_DATA',
			{ ...path('from'), id: fromId },
			'layout does not contain the pipeline',
		);
	if (!toId) return errorItem('MANDATORY_NOT_FOUND', path('to'));
	if (!to || to.id === from.id)
		return errorItem(
			'INVALID_DATA',
			{ ...path('to'), id: toId },
			'layout does not contain the pipeline',
		);
	if (from.default)
		return errorItem(
			'INVALID_DATA',
			{ ...path('from'), id: from.id },
			'the default pipeline cannot be deleted',
		);
	if (!Array.isArray(input.stages)) return itemError(c, 'MANDATORY_NOT_FOUND', 'stages');
	const mapping = new Map<string, string>();
	for (let i = 0; i < input.stages.length; i++) {
		const s = input.stages[i] as Json;
		const sFrom = s && typeof s === 'object' ? idText(s.from) : undefined;
		const sTo = s && typeof s === 'object' ? idText(s.to) : undefined;
		const at = `$.${c.key}[${c.index}].stages[${i}]`;
		if (!sFrom || !from.stages.includes(sFrom))
			return errorItem(
				'INVALID_DATA',
				{ api_name: 'from', json_path: `${at}.from`, id: sFrom ?? null },
				'pipeline does not contain the stage',
			);
		if (!sTo || !to.stages.includes(sTo))
			return errorItem(
				'INVALID_DATA',
				{ api_name: 'to', json_path: `${at}.to`, id: sTo ?? null },
				'pipeline does not contain the stage',
			);
		mapping.set(sFrom, sTo);
	}
	const unmapped = from.stages.find((s) => !to.stages.includes(s) && !mapping.has(s));
	if (unmapped)
		return itemError(
			c,
			'INVALID_DATA',
			'stages',
			{ id: unmapped },
			'every stage missing from the target pipeline must be mapped',
		);

	// move the deals of the source pipeline, then delete it
	const stages = dealStages(sandbox);
	const nameOf = new Map(stages.map((s) => [s.id, s.display_value]));
	const idOf = new Map(stages.map((s) => [s.display_value, s.id]));
	const deals = dealsModule(sandbox);
	const keepsName =
		siblings.some((p) => p.id !== from.id && p.display_value === from.display_value) ||
		sandbox.store
			.docs<PipelineDoc>('pipelines')
			.some((p) => p.layout_id !== layout.id && p.display_value === from.display_value);
	let moved = 0;
	if (!keepsName) {
		for (const record of [...sandbox.store.iterateRecords('Deals')]) {
			if (record.Pipeline !== from.display_value) continue;
			const stageId = idOf.get(String(record.Stage));
			const target = stageId ? mapping.get(stageId) : undefined;
			const changes: Json = { Pipeline: to.display_value };
			if (target) changes.Stage = nameOf.get(target);
			const result = updateRecord(sandbox, deals, record, changes, {
				v: ctx.v,
				user: sandbox.user(ctx),
				index: 0,
				guards: [],
			});
			if (result.ok) moved++;
		}
	}
	sandbox.store.deleteDoc('pipelines', from.id);
	syncPipelinePicklist(sandbox);
	return success('transfer pipeline scheduled successfully', {
		from: from.id,
		to: to.id,
		transferred_count: moved,
	});
}

/** Body wrapper key of the pipeline writes. */
export const PIPELINE_KEY = 'pipeline';
