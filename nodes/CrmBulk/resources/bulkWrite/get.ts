import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BULK_BASE_URL, bulkJobIdField } from '../shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** GetBulkWriteJobDetails — GET /crm/bulk/{v}/write/{jobId} */
export const operation: INodePropertyOptions = {
	name: 'Get Job',
	value: 'get',
	action: 'Get a bulk write job',
	description: 'Get the status, per-file counts and result URL of a bulk write job',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				baseURL: BULK_BASE_URL,
				url: '=/write/{{ toPathSegment(String($parameter.jobId).trim()) }}',
			},
		},
		{ notFound: noneWithId('bulk write job', 'jobId') },
	),
};

export const returns =
	'the job with its id, status, per-file counts and result download URL (an error when none has the ID)';

export const writeJobIdField = bulkJobIdField('write', '4876876000000710001');

export const description = updateDisplayOptions(
	{ show: { resource: ['bulkWrite'], operation: ['get'] } },
	[writeJobIdField],
);
