import { matchJsonCriteria } from '../../criteria.ts';
import { HttpError } from '../../errors.ts';
import type { StoredModule } from '../../metadata.ts';
import { updateRecord } from '../../records.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { RECORD_SCOPES } from '../records/index.ts';
import {
	BLUEPRINT_GUARDS,
	available,
	isEmpty,
	membershipKey,
	notInProcess,
	recordOf,
	runningProcess,
	validationError,
} from './shared.ts';
import { successItem } from '../shared.ts';

/** UpdateBlueprint: PUT /crm/{v}/{module}/{id}/actions/blueprint (docs/protocol.md §5.8). */
export const updateBlueprint = operation(
	'PUT',
	'/:module/:id/actions/blueprint',
	{ scopes: RECORD_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const module = ctx.module as StoredModule;
		const [item] = wrapperList(ctx, 'blueprint', 1);
		const record = recordOf(ctx);
		if (!item || typeof item !== 'object' || Array.isArray(item)) {
			throw HttpError.invalidData({ api_name: 'blueprint', expected_data_type: 'jsonobject' });
		}
		const input = item as Json;
		const path = (key: string) => (ctx.v === 'v2.1' ? { json_path: `$.blueprint[0].${key}` } : {});
		const transitionId = input.transition_id;
		if (transitionId === undefined || transitionId === null || transitionId === '') {
			throw HttpError.invalidData(
				{ api_name: 'transition_id', ...path('transition_id') },
				'required field not found',
			);
		}
		const running = runningProcess(sandbox, module.api_name, record);
		if (!running) throw notInProcess(ctx, record.id);
		const { process, membership } = running;
		const transition = available(process, record).find((t) => t.id === String(transitionId));
		if (!transition) {
			throw HttpError.invalidData(
				{ api_name: 'transition_id', ...path('transition_id') },
				'the transition is not available for the record',
			);
		}
		if (transition.criteria && !matchJsonCriteria(record, transition.criteria)) {
			throw HttpError.invalidData(
				{
					api_name: 'transition_id',
					...path('transition_id'),
					...(ctx.v === 'v2.1' ? { info_message: transition.criteria_message ?? null } : {}),
				},
				transition.criteria_message ?? 'the transition criteria are not met',
			);
		}
		const data = input.data ?? {};
		if (!data || typeof data !== 'object' || Array.isArray(data)) {
			throw HttpError.invalidData({
				api_name: 'data',
				expected_data_type: 'jsonobject',
				...path('data'),
			});
		}
		const values = data as Json;
		const allowed = new Set(transition.fields.map((f) => f.api_name));
		const problems: Json[] = [];
		for (const key of Object.keys(values)) {
			if (key === 'id') continue;
			if (key === process.field)
				problems.push(validationError(ctx, key, 'the field is set by the transition'));
			else if (!allowed.has(key))
				problems.push(validationError(ctx, key, 'the field is not part of the transition'));
		}
		for (const f of transition.fields) {
			if (f.mandatory && isEmpty(values[f.api_name]))
				problems.push(validationError(ctx, f.api_name, 'required field not found'));
		}
		if (problems.length === 0) {
			const changes: Json = { ...values, [process.field]: transition.to };
			delete changes.id;
			const result = sandbox.store.transaction(() => {
				const written = updateRecord(sandbox, module, record, changes, {
					v: ctx.v,
					user: sandbox.user(ctx),
					index: 0,
					// the transition is the one way to move the process field: bypass the blueprint guard only
					guards: sandbox.recordGuards.filter((g) => !BLUEPRINT_GUARDS.has(g)),
					message: 'transition updated successfully',
				});
				if (written.ok) {
					const done = !process.open_states.includes(transition.to);
					sandbox.store.putDoc('blueprint_records', membershipKey(module.api_name, record.id), {
						...membership,
						status: done ? 'completed' : 'active',
						history: [
							...membership.history,
							{
								transition_id: transition.id,
								name: transition.name,
								from: record[process.field],
								to: transition.to,
								time: sandbox.formatTime(),
								by: sandbox.user(ctx),
							},
						],
					});
				}
				return written;
			});
			if (result.ok) {
				return {
					body: successItem(record.id, 'transition updated successfully'),
				};
			}
			const failed = result.body;
			const apiName = String(failed.details.api_name ?? failed.details.id ?? 'data');
			const rest: Json = { ...failed.details };
			delete rest.api_name;
			delete rest.json_path;
			problems.push(
				validationError(
					ctx,
					apiName,
					failed.message,
					failed.code === 'INVALID_DATA' ? rest : { code: failed.code, ...rest },
				),
			);
		}
		throw HttpError.invalidData({ validation_error: problems }, 'invalid data');
	},
);
