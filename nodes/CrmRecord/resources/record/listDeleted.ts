import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsField, sendAsQuery } from '../../../shared/description/collections';
import { moduleSelect, returnAllLimit } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { modifiedSinceOption } from './get';
import { readOptions } from './hooks';
import { crmRouting } from '../../../shared/transport';

/** GetDeletedRecords — GET /crm/{v}/{module}/deleted, paged by its request runner (crmRouting) */
export const operation: INodePropertyOptions = {
	name: 'List Deleted',
	value: 'listDeleted',
	action: 'List deleted records',
	description: 'List the deleted records of a module: recycle bin, permanently deleted, or both',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/{{ toPathSegment($parameter.module) }}/deleted',
			},
			send: { preSend: [readOptions] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns =
	'one item per deleted record, with its id, display name, type (recycle or permanent) and who deleted it when';

const properties: INodeProperties[] = [
	moduleSelect,
	optionsField(
		'Type',
		'type',
		{ All: 'all', 'Permanently Deleted': 'permanent', 'Recycle Bin': 'recycle' },
		'all',
		sendAsQuery('type'),
	),
	...returnAllLimit(),
	optionsCollection([modifiedSinceOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['listDeleted'] } },
	properties,
);
