import { HttpError } from '../../errors.ts';
import { defaultDuplicateCheckFields, upsertRecord } from '../../records.ts';
import type { ExternalSpec } from '../../records.ts';
import { operation } from '../../router.ts';
import type { Ctx } from '../../router.ts';
import { loggedWrite, RECORD_SCOPES, RECORD_WRITE_MAX, writeOptions } from './shared.ts';

/** UpsertRecords: POST /crm/{v}/{module}/upsert (docs/protocol.md §5.1). */
export const upsertRecords = operation(
	'POST',
	'/:module/upsert',
	{ scopes: RECORD_SCOPES },
	(ctx) =>
		loggedWrite(ctx, 'upsert', {
			max: RECORD_WRITE_MAX,
			status: 200,
			logged: (external) => ({ duplicate_check_fields: checkFieldsOf(ctx, external) }),
			write: (item, index, { external, logged }) =>
				upsertRecord(
					ctx.sandbox,
					ctx.module!,
					item,
					logged.duplicate_check_fields!,
					writeOptions(ctx, index, external),
				).body,
		}),
);

/** The fields that find an existing record: the body's `duplicate_check_fields`, the X-EXTERNAL field first. */
function checkFieldsOf(ctx: Ctx, external: ExternalSpec): string[] {
	const module = ctx.module!;
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
	return checkFields;
}
