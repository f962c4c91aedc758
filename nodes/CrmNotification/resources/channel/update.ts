import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	channelDetails,
	channelIdField,
	checkChannelId,
	checkNotifyUrl,
	eventsField,
	eventsOf,
	notifyUrlField,
	optionKeys,
	runWatchBatched,
	subscriptionOptions,
	subscriptionOptionsField,
} from './shared';
import { getParameter } from '../../../shared/parameters';

/**
 * UpdateNotifications — PUT /crm/{v}/actions/watch (replace every detail);
 * UpdateNotification — PATCH /crm/{v}/actions/watch (merge: only the keys given; events are added).
 * Up to 100 channels per request (custom operation).
 */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a watch channel',
	description: "Replace a channel's details or merge changes into them, e.g. a new expiry",
};

export const returns =
	'one item per channel, with its channel id, status and the watched modules with their expiry time';

const replaceOnly = { show: { updateMode: ['replace'] } };
const mergeOnly = { show: { updateMode: ['merge'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Update Mode',
		name: 'updateMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Merge',
				value: 'merge',
				description: 'Change only the details given; events are added to the channel (PATCH)',
			},
			{
				name: 'Replace',
				value: 'replace',
				description: 'Replace every detail; details left out return to their defaults (PUT)',
			},
		],
		default: 'merge',
	},
	channelIdField,
	{ ...eventsField({ required: true }), displayOptions: replaceOnly },
	{ ...notifyUrlField, displayOptions: replaceOnly },
	{ ...subscriptionOptionsField, displayOptions: replaceOnly },
	{ ...eventsField({ displayName: 'Events to Add' }), displayOptions: mergeOnly },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [{ ...notifyUrlField, required: false }, ...subscriptionOptions],
		displayOptions: mergeOnly,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['channel'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runWatchBatched.call(this, (itemIndex) => {
		const mode = getParameter(this, 'updateMode', itemIndex) as 'replace' | 'merge';
		const payload: IDataObject = {
			channel_id: checkChannelId(this, getParameter(this, 'channelId', itemIndex), itemIndex),
		};
		if (mode === 'replace')
			return { method: 'PUT', payload: { ...payload, ...channelDetails(this, itemIndex) } };
		const events = eventsOf(this, getParameter(this, 'eventsUi', itemIndex, {}), itemIndex, false);
		if (events) payload.events = events;
		const fields = getParameter(this, 'updateFields', itemIndex, {}) as IDataObject;
		if (fields.notifyUrl !== undefined && fields.notifyUrl !== '')
			payload.notify_url = checkNotifyUrl(this, fields.notifyUrl, itemIndex);
		Object.assign(payload, optionKeys(this, fields, itemIndex));
		return { method: 'PATCH', payload };
	});
}
