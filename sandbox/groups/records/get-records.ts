import { HttpError } from '../../errors.ts';
import { pickFields, recordTerritoryIds, territories, territoryScope } from '../../records.ts';
import type { RecordPredicate } from '../../records.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { parseDateTime } from '../../time.ts';
import { idsParam, ifModifiedSince, pagedReply, paging } from '../../wire.ts';
import { customView, fieldsParam, paramKey, RECORD_SCOPES, viewPredicate } from './shared.ts';

/** GetRecords: GET /crm/{v}/{module} (docs/protocol.md §5.1). */
export const getRecords = operation('GET', '/:module', { scopes: RECORD_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const module = ctx.module!;
	const p = paging(ctx);
	const fields = fieldsParam(ctx);
	const ids = idsParam(ctx, 'ids', 100, false);
	const sortBy = ctx.q('sort_by');
	if (sortBy && !module.fields.some((f) => f.api_name === sortBy)) {
		throw HttpError.invalidData({ [paramKey(ctx)]: 'sort_by' }, 'invalid sort_by field');
	}
	const sortOrder = ctx.q('sort_order');
	if (sortOrder && sortOrder !== 'asc' && sortOrder !== 'desc') {
		throw HttpError.invalidData({ [paramKey(ctx)]: 'sort_order' });
	}
	for (const name of ['converted', 'approved']) {
		const value = ctx.q(name);
		if (value !== undefined && !['true', 'false', 'both'].includes(value))
			throw HttpError.invalidData({ [paramKey(ctx)]: name });
	}
	// cvid: the view's criteria; territory_id (+include_child): records assigned to the territory
	const filters: RecordPredicate[] = [];
	const cvid = ctx.q('cvid');
	if (cvid !== undefined) filters.push(viewPredicate(ctx, module, customView(ctx, module, cvid)));
	const territoryId = ctx.q('territory_id');
	if (territoryId !== undefined) {
		if (!territories(sandbox).some((t) => t.id === territoryId))
			throw HttpError.invalidData({ [paramKey(ctx)]: 'territory_id' });
		const scope = territoryScope(sandbox, territoryId, ctx.q('include_child') === 'true');
		filters.push((r) => recordTerritoryIds(r).some((id) => scope.has(id)));
	}
	// startDateTime / endDateTime bound Created_Time (inclusive)
	for (const [name, cmp] of [
		['startDateTime', (t: number, b: number) => t >= b],
		['endDateTime', (t: number, b: number) => t <= b],
	] as const) {
		const raw = ctx.q(name);
		if (raw === undefined) continue;
		const bound = parseDateTime(raw);
		if (bound === undefined)
			throw HttpError.invalidData({ [paramKey(ctx)]: name, expected_data_type: 'datetime' });
		filters.push((r) => cmp(parseDateTime(r.Created_Time) ?? 0, bound));
	}
	const since = ifModifiedSince(ctx);
	if (since !== undefined && (store.latestModified(module.api_name) ?? 0) <= since)
		return { status: 304 };
	// converted leads are hidden unless asked for (§3.2); the store filters them in its index, so a
	// page costs its own rows whatever the module's size (no JS pass over the module)
	const converted = ctx.q('converted') ?? 'false';
	const listOptions = {
		ids,
		sortBy,
		sortOrder: (sortOrder ?? 'desc') as 'asc' | 'desc',
		modifiedSince: since,
		converted: converted === 'both' ? undefined : converted === 'true',
	};
	let records: Json[] = [];
	if (ctx.q('approved') === 'false') {
		// every sandbox record is approved
	} else if (filters.length > 0) {
		// predicates SQL cannot express: walk the listing in order and stop at the page's end
		let skipped = 0;
		store.scanRecords(module.api_name, listOptions, (r) => {
			if (!filters.every((f) => f(r))) return true;
			if (skipped < p.offset) {
				skipped++;
				return true;
			}
			records.push(r);
			return records.length <= p.perPage;
		});
	} else {
		records = store.listRecords(module.api_name, {
			...listOptions,
			offset: p.offset,
			limit: p.perPage + 1,
		});
	}
	const extra =
		ctx.v === 'v2.1' && sortBy ? { sort_by: sortBy, sort_order: sortOrder ?? 'desc' } : {};
	return pagedReply(
		'data',
		p,
		records.map((r) => pickFields(r, fields)),
		extra,
	);
});
