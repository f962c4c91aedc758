import { findRecord, pickFields } from '../../records.ts';
import { operation } from '../../router.ts';
import { ifModifiedSince } from '../../wire.ts';
import { addressed, fieldsParam, RECORD_SCOPES } from './shared.ts';

/** GetRecord / GetRecordUsingExternalID: GET /crm/{v}/{module}/{id} (docs/protocol.md §5.1). */
export const getRecord = operation('GET', '/:module/:id', { scopes: RECORD_SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	const module = ctx.module!;
	const fields = fieldsParam(ctx);
	const { external, key } = addressed(ctx);
	const record = findRecord(sandbox, module, key, external);
	if (!record) return { status: 204 };
	const since = ifModifiedSince(ctx);
	if (since !== undefined && Date.parse(String(record.Modified_Time)) <= since)
		return { status: 304 };
	return { body: { data: [pickFields(record, fields)] } };
});
