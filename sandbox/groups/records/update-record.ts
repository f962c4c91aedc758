import { operation } from '../../router.ts';
import { addressed, loggedWrite, RECORD_SCOPES, updateOne } from './shared.ts';

/** UpdateRecord / UpdateRecordUsingExternalID: PUT /crm/{v}/{module}/{id} (docs/protocol.md §5.1). */
export const updateRecord = operation('PUT', '/:module/:id', { scopes: RECORD_SCOPES }, (ctx) =>
	loggedWrite(ctx, 'update', {
		max: 1,
		status: 200,
		address: addressed,
		write: (item, index, { key, external }) => updateOne(ctx, item, index, key, external),
	}),
);
