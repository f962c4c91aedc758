import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { channelIdField, checkChannelId, eventsField, eventsOf, watchRouting } from './shared';
import { getParameter } from '../../../shared/parameters';
import { bodyPreSend } from '../../../shared/transport';

/** Body of DisableNotification: `{watch: [{channel_id, events, _delete_events: true}]}`. */
const removeEventsBody = bodyPreSend(function (itemIndex) {
	return {
		watch: [
			{
				channel_id: checkChannelId(this, getParameter(this, 'channelId', itemIndex), itemIndex),
				events: eventsOf(this, getParameter(this, 'eventsUi', itemIndex, {}), itemIndex, true),
				_delete_events: true,
			},
		],
	};
});

/** DisableNotification — PATCH /crm/{v}/actions/watch with `_delete_events: true` (one request per item) */
export const operation: INodePropertyOptions = {
	name: 'Remove Events',
	value: 'removeEvents',
	action: 'Remove events from a watch channel',
	description: 'Stop watching some events of a channel; a channel left with none is removed',
	routing: watchRouting('PATCH', removeEventsBody),
};

export const returns = 'the outcome for the channel: its status and the modules it still watches';

const properties: INodeProperties[] = [
	channelIdField,
	eventsField({ displayName: 'Events to Remove', required: true }),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['channel'], operation: ['removeEvents'] } },
	properties,
);
