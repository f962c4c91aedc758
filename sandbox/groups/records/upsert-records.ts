import { HttpError } from '../../errors.ts';
import { defaultDuplicateCheckFields, logWrite, upsertRecord } from '../../records.ts';
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

/** UpsertRecords: POST /crm/{v}/{module}/upsert (docs/protocol.md §5.1). */
export const upsertRecords = operation(
	'POST',
	'/:module/upsert',
	{ scopes: RECORD_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const module = ctx.module!;
		const items = wrapperList(ctx, 'data', RECORD_WRITE_MAX);
		const external = externalOf(ctx);
		const extras = writeExtras(ctx);
		const body = ctx.json();
		let checkFields = defaultDuplicateCheckFields(module);
		if (body.duplicate_check_fields !== undefined && body.duplicate_check_fields !== null) {
			const list = body.duplicate_check_fields;
			if (!Array.isArray(list) || list.length === 0) {
				throw HttpError.invalidData({
					api_name: 'duplicate_check_fields',
					expected_data_type: 'jsonarray',
				});
			}
			for (const name of list) {
				const field = module.fields.find((f) => f.api_name === name);
				if (!field || field.read_only)
					throw HttpError.invalidData({ api_name: String(name) }, 'invalid duplicate check field');
			}
			checkFields = list as string[];
		}
		if (external.field)
			checkFields = [external.field, ...checkFields.filter((f) => f !== external.field)];
		const results = store.transaction(() => {
			const out = items.map(
				(item, index) =>
					upsertRecord(sandbox, module, item, checkFields, writeOptions(ctx, index, external)).body,
			);
			logWrite(sandbox, {
				operation: 'upsert',
				module: module.api_name,
				v: ctx.v,
				...extras,
				duplicate_check_fields: checkFields,
				ids: idsOf(out),
			});
			return out;
		});
		return resultsReply('data', 200, results);
	},
);
