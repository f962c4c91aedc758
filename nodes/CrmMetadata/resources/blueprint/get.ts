import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { idPathSegment, requireDigits } from '../../../shared/records/validation';
import { crmRouting } from '../../../shared/transport';

/** GetBlueprint — GET /crm/{v}/{module}/{recordId}/actions/blueprint */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get the blueprint of a record',
	description: "Retrieve a record's blueprint process and the transitions available to it",
	routing: crmRouting(
		{
			send: { preSend: [requireDigits('recordId', 'Record ID')] },
			request: {
				method: 'GET',
				url: `=/{{ toPathSegment($parameter.module) }}/${idPathSegment('recordId')}/actions/blueprint`,
			},
		},
		{ rootProperty: 'blueprint' },
	),
};

export const returns =
	'the blueprint of the record: its process info and the transitions it can take now, with their ids and fields';

const properties: INodeProperties[] = [moduleSelect, recordIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['blueprint'], operation: ['get'] } },
	properties,
);
