import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { crmRouting, requireV21 } from '../../../shared/transport';
import { countPreSend } from './hooks';
import { searchByProperties } from './search';

/** RecordCount — GET /crm/{v}/{module}/actions/count (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Count',
	value: 'count',
	action: 'Count records',
	description: 'Count the records of a module, optionally matching a search',
	routing: crmRouting({
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}/actions/count',
		},
		send: { preSend: [requireV21('Count (RecordCount)'), countPreSend] },
	}),
};

export const returns = 'the number of records matching (count)';

const properties: INodeProperties[] = [moduleSelect, ...searchByProperties(true)];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['count'] } },
	properties,
);
