import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllLimit } from '../../../shared/description/properties';
import { watchRouting, watchableModuleField } from './shared';

/** GetNotificationDetails — GET /crm/{v}/actions/watch, paged by its request runner (crmRouting) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many watch channels',
	description: 'List subscribed channels, one item per channel and module',
	routing: watchRouting('GET'),
};

export const returns =
	'one item per channel and module, with the channel id, events, notify URL, token and expiry time';

const properties: INodeProperties[] = [
	...returnAllLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Channel ID',
				name: 'channelId',
				type: 'string',
				default: '',
				description: 'Only this channel',
				routing: {
					send: { type: 'query', property: 'channel_id', value: '={{ $value || undefined }}' },
				},
			},
			{
				...watchableModuleField('Only channels watching this module'),
				routing: {
					send: { type: 'query', property: 'module', value: '={{ $value || undefined }}' },
				},
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['channel'], operation: ['getAll'] } },
	properties,
);
