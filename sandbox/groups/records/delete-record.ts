import { logWrite } from '../../records.ts';
import { operation } from '../../router.ts';
import { addressed, deleteOne, idsOf, RECORD_SCOPES, wfTriggerParam } from './shared.ts';
import { resultsReply } from '../shared.ts';

/** DeleteRecord / DeleteRecordUsingExternalID: DELETE /crm/{v}/{module}/{id} (docs/protocol.md §5.1). */
export const deleteRecord = operation(
	'DELETE',
	'/:module/:id',
	{ scopes: RECORD_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const { external, key } = addressed(ctx);
		const wfTrigger = wfTriggerParam(ctx);
		const result = store.transaction(() => {
			const out = deleteOne(ctx, key, external);
			logWrite(sandbox, {
				operation: 'delete',
				module: ctx.module!.api_name,
				v: ctx.v,
				fired: wfTrigger === 'false' ? [] : ['workflow'],
				wf_trigger: wfTrigger,
				ids: idsOf([out]),
			});
			return out;
		});
		return resultsReply('data', 200, [result]);
	},
);
