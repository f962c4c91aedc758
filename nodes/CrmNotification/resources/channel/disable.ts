import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { WATCH_MAX } from '../../../shared/changes/watchChannels';
import { listOf } from '../../../shared/records/validation';
import { checkChannelId, watchRouting } from './shared';
import { getParameter } from '../../../shared/parameters';

/** Channel IDs of the item (comma-separated), validated: digits, at most 100 per request. */
async function channelIdsQuery(
	this: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const ids = listOf(getParameter(this, 'channelIds', itemIndex, ''));
	if (ids.length === 0)
		throw new NodeOperationError(this.getNode(), 'Channel IDs: give at least one channel ID');
	if (ids.length > WATCH_MAX) {
		throw new NodeOperationError(
			this.getNode(),
			`Channel IDs: at most ${WATCH_MAX} per item, got ${ids.length}`,
		);
	}
	const checked = ids.map((id) => checkChannelId(this, id, itemIndex, 'Channel IDs'));
	request.qs = { ...(request.qs ?? {}), channel_ids: checked.join(',') };
	return request;
}

/** DisableNotifications — DELETE /crm/{v}/actions/watch?channel_ids=… (one request per item) */
export const operation: INodePropertyOptions = {
	name: 'Disable',
	value: 'disable',
	action: 'Disable watch channels',
	description: 'Unsubscribe channels from all notifications',
	routing: watchRouting('DELETE', channelIdsQuery),
};

export const returns = 'one item per disabled channel, with its status and the modules it watched';

const properties: INodeProperties[] = [
	{
		displayName: 'Channel IDs',
		name: 'channelIds',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1000000068001,1000000068002',
		description: 'Comma-separated IDs of the channels to disable (at most 100)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['channel'], operation: ['disable'] } },
	properties,
);
