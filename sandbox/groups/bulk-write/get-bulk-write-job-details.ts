import { operation } from '../../router.ts';
import { BULK_CREATE, jobOf, writeJobJson } from './shared.ts';

/** GetBulkWriteJobDetails: GET /crm/bulk/{v}/write/{jobId} (docs/protocol.md §5.11); unknown 404. */
export const getBulkWriteJobDetails = operation(
	'GET',
	'/write/:jobId',
	{ root: 'bulk', scopes: [BULK_CREATE.concat('CRM.bulk.READ')] },
	(ctx) => ({ body: writeJobJson(jobOf(ctx), ctx.v) }),
);
