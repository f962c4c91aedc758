import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BULK_BASE_URL, bulkJobIdField } from '../shared';
import { idPathSegment, requireDigits } from '../../../shared/records/validation';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** GetBulkReadJobDetails — GET /crm/bulk/{v}/read/{jobId} */
export const operation: INodePropertyOptions = {
	name: 'Get Job',
	value: 'get',
	action: 'Get a bulk read job',
	description: 'Get the state and result of a bulk read job',
	routing: crmRouting(
		{
			send: { preSend: [requireDigits('jobId', 'Job ID')] },
			request: {
				method: 'GET',
				baseURL: BULK_BASE_URL,
				url: `=/read/${idPathSegment('jobId')}`,
			},
		},
		{ rootProperty: 'data', notFound: noneWithId('bulk read job', 'jobId') },
	),
};

export const returns =
	'the job with its id, state and, once completed, record count and download URL (an error when none has the ID)';

export const jobIdField = bulkJobIdField('read', '4876876000000700001');

export const description = updateDisplayOptions(
	{ show: { resource: ['bulkRead'], operation: ['get'] } },
	[jobIdField],
);
