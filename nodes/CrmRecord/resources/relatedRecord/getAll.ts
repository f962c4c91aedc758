import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, returnAllLimit } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import {
	externalIdOptions,
	parentRecordIdField,
	relatedListSelect,
	relatedRequest,
} from './shared';
import { crmRouting } from '../../../shared/transport';

/** GetRelatedRecords (+UsingExternalID) — GET /crm/{v}/{module}/{recordId}/{relatedList}, paged by the runner */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many related records',
	description: 'List the records of a related list of a record',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/{{ toPathSegment($parameter.relatedList) }}',
			},
			send: { preSend: [relatedRequest] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns = 'one item per related record, with its id and field values';

const properties: INodeProperties[] = [
	moduleSelect,
	parentRecordIdField,
	relatedListSelect,
	...returnAllLimit(),
	// listing takes no related record: only the parent's external ID
	optionsCollection([externalIdOptions[0]]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['relatedRecord'], operation: ['getAll'] } },
	properties,
);
