import { operation } from '../../router.ts';
import { jobOf, jobScopes, readJobJson } from './shared.ts';

/** GetBulkReadJobDetails: GET /crm/bulk/{v}/read/{jobId} (docs/protocol.md §5.11). */
export const getBulkReadJobDetails = operation(
	'GET',
	'/read/:jobId',
	{ root: 'bulk', scopes: jobScopes },
	(ctx) => ({ body: { data: [readJobJson(jobOf(ctx), ctx.v)] } }),
);
