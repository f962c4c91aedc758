import { HttpError } from '../../errors.ts';
import { createRecord, logWrite } from '../../records.ts';
import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import {
	externalOf,
	idsOf,
	RECORD_SCOPES,
	RECORD_WRITE_MAX,
	writeExtras,
	writeOptions,
} from './shared.ts';
import { resultsReply } from '../shared.ts';

/** CreateRecords: POST /crm/{v}/{module} (docs/protocol.md §5.1). */
export const createRecords = operation('POST', '/:module', { scopes: RECORD_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const module = ctx.module!;
	if (!module.creatable)
		throw new HttpError(
			'NOT_SUPPORTED',
			{ module: module.api_name },
			'the module does not support creating records',
		);
	const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
	const external = externalOf(ctx);
	const extras = writeExtras(ctx);
	const results = store.transaction(() => {
		const out = items.map(
			(item, index) => createRecord(sandbox, module, item, writeOptions(ctx, index, external)).body,
		);
		logWrite(sandbox, {
			operation: 'create',
			module: module.api_name,
			v: ctx.v,
			...extras,
			ids: idsOf(out),
		});
		return out;
	});
	return resultsReply('data', 201, results);
});
