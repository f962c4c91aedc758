import { HttpError } from '../../errors.ts';
import { logWrite } from '../../records.ts';
import { operation } from '../../router.ts';
import { idsParam } from '../../wire.ts';
import { deleteOne, externalOf, idsOf, RECORD_SCOPES, wfTriggerParam } from './shared.ts';
import { resultsReply } from '../shared.ts';

/** DeleteRecords: DELETE /crm/{v}/{module} (docs/protocol.md §5.1). */
export const deleteRecords = operation('DELETE', '/:module', { scopes: RECORD_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const module = ctx.module!;
	if (!module.deletable)
		throw new HttpError(
			'NOT_SUPPORTED',
			{ module: module.api_name },
			'the module does not support deleting records',
		);
	const external = externalOf(ctx);
	const ids = external.field ? ctx.list('ids') : idsParam(ctx, 'ids', 100, true)!;
	if (ids.length === 0) throw HttpError.requiredParam('ids', ctx.v);
	if (ids.length > 100) throw HttpError.limit(100, 'ids');
	const wfTrigger = wfTriggerParam(ctx);
	const results = store.transaction(() => {
		const out = ids.map((id) => deleteOne(ctx, id, external));
		logWrite(sandbox, {
			operation: 'delete',
			module: module.api_name,
			v: ctx.v,
			fired: wfTrigger === 'false' ? [] : ['workflow'],
			wf_trigger: wfTrigger,
			ids: idsOf(out),
		});
		return out;
	});
	return resultsReply('data', 200, results);
});
