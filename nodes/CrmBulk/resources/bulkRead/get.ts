import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { BULK_BASE_URL } from '../shared';
import { requireDigits } from '../../../shared/validation';

/** GetBulkReadJobDetails — GET /crm/bulk/{v}/read/{jobId} */
export const operation: INodePropertyOptions = {
	name: 'Get Job',
	value: 'get',
	action: 'Get a bulk read job',
	description: 'Get the state and result of a bulk read job (GetBulkReadJobDetails)',
	routing: {
		send: { preSend: [requireDigits('jobId', 'Job ID')] },
		request: {
			method: 'GET',
			baseURL: BULK_BASE_URL,
			url: '=/read/{{ toPathSegment(String($parameter.jobId).trim()) }}',
		},
	},
};

export const jobIdField: INodeProperties = {
	displayName: 'Job ID',
	name: 'jobId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '4876876000000700001',
	description: 'ID of the bulk read job, as answered by Create Job',
};

export const description = updateDisplayOptions({ show: { resource: ['bulkRead'], operation: ['get'] } }, [jobIdField]);
