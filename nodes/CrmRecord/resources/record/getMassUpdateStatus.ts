import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/descriptions';

/** GetMassUpdateStatus — GET /crm/{v}/{module}/actions/mass_update?job_id=… */
export const operation: INodePropertyOptions = {
	name: 'Get Mass Update Status',
	value: 'getMassUpdateStatus',
	action: 'Get the status of a mass update',
	description: 'Status and counts of a mass update job: SCHEDULED, RUNNING, COMPLETED or FAILED (GetMassUpdateStatus)',
	routing: {
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}/actions/mass_update',
		},
	},
};

const properties: INodeProperties[] = [
	moduleSelect,
	{
		displayName: 'Job ID',
		name: 'jobId',
		type: 'string',
		default: '',
		required: true,
		description: 'The job_id answered by Mass Update',
		routing: { send: { type: 'query', property: 'job_id', value: '={{ String($value).trim() }}' } },
	},
];

export const description = updateDisplayOptions({ show: { resource: ['record'], operation: ['getMassUpdateStatus'] } }, properties);
