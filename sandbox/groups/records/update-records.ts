import { logWrite } from '../../records.ts';
import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import {
	externalOf,
	idsOf,
	RECORD_SCOPES,
	RECORD_WRITE_MAX,
	updateOne,
	writeExtras,
} from './shared.ts';
import { resultsReply } from '../shared.ts';

/** UpdateRecords: PUT /crm/{v}/{module} (docs/protocol.md §5.1). */
export const updateRecords = operation('PUT', '/:module', { scopes: RECORD_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
	const external = externalOf(ctx);
	const extras = writeExtras(ctx);
	const results = store.transaction(() => {
		const out = items.map((item, index) => updateOne(ctx, item, index, undefined, external));
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
