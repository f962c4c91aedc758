import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { relatedRequest, relationProperties } from './shared';
import type { NotFound } from '../../../shared/transport';
import { pickedValue } from '../../../shared/description/properties';
import { crmRouting } from '../../../shared/transport';

/** A missing related record answers 204 (docs/protocol.md §5.2, §3.7). */
const notFound: NotFound = function () {
	const [module, recordId, list, id] = ['module', 'recordId', 'relatedList', 'relatedRecordId'].map(
		(name) => pickedValue(this, name),
	);
	return `No ${list} record with ID ${id} related to ${module} record ${recordId}`;
};

/** GetRelatedRecord (+UsingExternalID) — GET /crm/{v}/{module}/{recordId}/{relatedList}/{relatedId} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a related record',
	description: 'Retrieve one record of a related list of a record',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/{{ toPathSegment($parameter.relatedList) }}/{{ toPathSegment($parameter.relatedRecordId) }}',
			},
			send: { preSend: [relatedRequest] },
		},
		{ rootProperty: 'data', notFound },
	),
};

export const returns =
	'the related record with its id and field values (an error when it is not in the list)';

export const description = updateDisplayOptions(
	{ show: { resource: ['relatedRecord'], operation: ['get'] } },
	relationProperties(),
);
