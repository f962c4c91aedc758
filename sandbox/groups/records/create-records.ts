import { HttpError } from '../../errors.ts';
import { createRecord } from '../../records.ts';
import { operation } from '../../router.ts';
import { loggedWrite, RECORD_SCOPES, RECORD_WRITE_MAX, writeOptions } from './shared.ts';

/** CreateRecords: POST /crm/{v}/{module} (docs/protocol.md §5.1). */
export const createRecords = operation('POST', '/:module', { scopes: RECORD_SCOPES }, (ctx) => {
	const module = ctx.module!;
	if (!module.creatable)
		throw new HttpError(
			'NOT_SUPPORTED',
			{ module: module.api_name },
			'the module does not support creating records',
		);
	return loggedWrite(ctx, 'create', {
		max: RECORD_WRITE_MAX,
		status: 201,
		write: (item, index, { external }) =>
			createRecord(ctx.sandbox, module, item, writeOptions(ctx, index, external)).body,
	});
});
