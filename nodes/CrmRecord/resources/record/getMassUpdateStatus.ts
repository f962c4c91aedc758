import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { crmRouting } from '../../../shared/transport';

/** GetMassUpdateStatus — GET /crm/{v}/{module}/actions/mass_update?job_id=… */
export const operation: INodePropertyOptions = {
	name: 'Get Mass Update Status',
	value: 'getMassUpdateStatus',
	action: 'Get the status of a mass update',
	description: 'Get the status and counts of a mass update job',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/{{ toPathSegment($parameter.module) }}/actions/mass_update',
			},
		},
		{ rootProperty: 'data' },
	),
};

export const returns =
	'the job status (scheduled, running, completed or failed) with total, updated, not updated and failed counts';

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

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['getMassUpdateStatus'] } },
	properties,
);
