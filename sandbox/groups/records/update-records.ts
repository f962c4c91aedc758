import { operation } from '../../router.ts';
import { loggedWrite, RECORD_SCOPES, RECORD_WRITE_MAX, updateOne } from './shared.ts';

/** UpdateRecords: PUT /crm/{v}/{module} (docs/protocol.md §5.1). */
export const updateRecords = operation('PUT', '/:module', { scopes: RECORD_SCOPES }, (ctx) =>
	loggedWrite(ctx, 'update', {
		max: RECORD_WRITE_MAX,
		status: 200,
		write: (item, index, { external }) => updateOne(ctx, item, index, undefined, external),
	}),
);
