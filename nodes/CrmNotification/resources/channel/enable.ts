import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { newChannelId } from '../../../shared/changes/watchChannels';
import {
	channelDetails,
	checkChannelId,
	eventsField,
	notifyUrlField,
	runWatchBatched,
	subscriptionOptionsField,
} from './shared';
import { getParameter } from '../../../shared/parameters';

/** EnableNotifications — POST /crm/{v}/actions/watch, up to 100 channels per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Enable',
	value: 'enable',
	action: 'Enable a watch channel',
	description: 'Subscribe a channel to record changes',
};

export const returns =
	'one item per channel, with its channel id, status and the watched modules with their expiry time';

const properties: INodeProperties[] = [
	{
		displayName: 'Channel ID',
		name: 'channelId',
		type: 'string',
		default: '',
		placeholder: '1000000068001',
		description: 'Numeric ID for the new channel; leave empty for a random one',
	},
	eventsField({ required: true }),
	notifyUrlField,
	subscriptionOptionsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['channel'], operation: ['enable'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runWatchBatched.call(this, (itemIndex) => {
		const given = String(getParameter(this, 'channelId', itemIndex, '') ?? '').trim();
		const payload: IDataObject = {
			channel_id: given ? checkChannelId(this, given, itemIndex) : newChannelId(),
			...channelDetails(this, itemIndex),
		};
		return { method: 'POST', payload };
	});
}
