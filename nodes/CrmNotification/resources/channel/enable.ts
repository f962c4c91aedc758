import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmApiRequest, runBatched } from '../../../shared/transport';
import { WATCH_MAX, WATCH_PATH, newChannelId, wishKeys } from '../../../shared/watch';
import {
	checkChannelId,
	checkNotifyUrl,
	eventsField,
	eventsOf,
	notifyUrlField,
	optionKeys,
	resultJson,
	subscriptionOptions,
} from './shared';

/** EnableNotifications — POST /crm/{v}/actions/watch, up to 100 channels per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Enable',
	value: 'enable',
	action: 'Enable a watch channel',
	description: 'Subscribe a channel to record changes',
};

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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: subscriptionOptions,
	},
];

export const description = updateDisplayOptions({ show: { resource: ['channel'], operation: ['enable'] } }, properties);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const channelIds: string[] = [];
	return await runBatched.call(this, {
		batchSize: WATCH_MAX,
		build: (itemIndex) => {
			const given = String(this.getNodeParameter('channelId', itemIndex, '') ?? '').trim();
			const channelId = given ? checkChannelId(this, given, itemIndex) : newChannelId();
			channelIds[itemIndex] = channelId;
			const payload: IDataObject = {
				channel_id: channelId,
				...wishKeys({
					events: eventsOf(this, this.getNodeParameter('eventsUi', itemIndex, {}), itemIndex, true),
					notifyUrl: checkNotifyUrl(this, this.getNodeParameter('notifyUrl', itemIndex), itemIndex),
				}),
				...optionKeys(this, this.getNodeParameter('options', itemIndex, {}) as IDataObject, itemIndex),
			};
			return { key: 'enable', payload };
		},
		send: async (_key, watch) => {
			const body = await crmApiRequest.call(this, { method: 'POST', path: WATCH_PATH, body: { watch }, itemListKey: 'watch' });
			return (body.watch ?? []) as IDataObject[];
		},
		toJson: (result, itemIndex) => resultJson(channelIds[itemIndex], result),
	});
}
