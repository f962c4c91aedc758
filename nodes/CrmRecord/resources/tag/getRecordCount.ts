import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { tagIdField } from './shared';
import { crmRouting } from '../../../shared/transport';

/** GetRecordCountForTag — GET /crm/{v}/settings/tags/{id}/actions/records_count?module=… */
export const operation: INodePropertyOptions = {
	name: 'Get Record Count',
	value: 'getRecordCount',
	action: 'Count the records of a tag',
	description: 'Count the records that carry a tag',
	routing: crmRouting({
		request: {
			method: 'GET',
			url: '=/settings/tags/{{ toPathSegment($parameter.tagId) }}/actions/records_count',
			qs: { module: '={{ $parameter.module }}' },
		},
	}),
};

export const returns = 'the number of records carrying the tag (count, as text)';

const properties: INodeProperties[] = [moduleSelect, tagIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getRecordCount'] } },
	properties,
);
