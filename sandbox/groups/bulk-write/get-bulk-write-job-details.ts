import type { Operation } from '../../types.ts';
import { BULK_CREATE, jobOf, writeJobJson } from './shared.ts';

/** GetBulkWriteJobDetails: GET /crm/bulk/{v}/write/{jobId} (docs/protocol.md §5.11); unknown 404. */
export const getBulkWriteJobDetails: Operation = {
	method: 'GET',
	pattern: '/write/:jobId',
	options: { root: 'bulk', scopes: [BULK_CREATE.concat('CRM.bulk.READ')] },
	handler: (ctx) => ({ body: writeJobJson(jobOf(ctx), ctx.v) }),
};
