import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { requiredQuery } from '../../wire.ts';
import { MASS_UPDATE_JOBS, paramKey, statusJson } from './shared.ts';
import type { MassUpdateJob } from './shared.ts';

/** GetMassUpdateStatus: GET /crm/{v}/{module}/actions/mass_update (docs/protocol.md §5.1). */
export const getMassUpdateStatus = operation(
	'GET',
	'/:module/actions/mass_update',
	{ scopes: [['CRM.mass_update.READ', 'CRM.mass_update.{mod}.READ']] },
	(ctx) => {
		const { store } = ctx.sandbox;
		const jobId = requiredQuery(ctx, 'job_id');
		const job = store.doc<MassUpdateJob>(MASS_UPDATE_JOBS, jobId);
		if (!job || job.module !== ctx.module!.api_name)
			throw HttpError.invalidData(
				{ [paramKey(ctx)]: 'job_id' },
				'the job id given seems to be invalid',
			);
		return { body: { data: [statusJson(job)] } };
	},
);
