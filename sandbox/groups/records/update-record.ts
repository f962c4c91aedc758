import { logWrite } from '../../records.ts';
import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { addressed, idsOf, RECORD_SCOPES, updateOne, writeExtras } from './shared.ts';
import { resultsReply } from '../shared.ts';

/** UpdateRecord / UpdateRecordUsingExternalID: PUT /crm/{v}/{module}/{id} (docs/protocol.md §5.1). */
export const updateRecord = operation('PUT', '/:module/:id', { scopes: RECORD_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const items = wrapperList(ctx, 'data', 1);
	const { external, key } = addressed(ctx);
	const extras = writeExtras(ctx);
	const results = store.transaction(() => {
		const out = items.map((item, index) => updateOne(ctx, item, index, key, external));
		logWrite(sandbox, {
			operation: 'update',
			module: ctx.module!.api_name,
			v: ctx.v,
			...extras,
			ids: idsOf(out),
		});
		return out;
	});
	return resultsReply('data', 200, results);
});
