import { CHANNELS, liveChannel } from '../../deliveries.ts';
import { operation } from '../../router.ts';
import { writeEach } from '../shared.ts';
import {
	fromInput,
	MESSAGES,
	notSubscribed,
	parseItem,
	SCOPES,
	success,
	WATCH_MAX,
} from './shared.ts';

/** UpdateNotifications: PUT /crm/{v}/actions/watch, replaces every detail of each channel (docs/protocol.md §5.14). */
export const updateNotifications = operation('PUT', '/actions/watch', { scopes: SCOPES }, (ctx) => {
	const { sandbox } = ctx;
	return writeEach(ctx, 'watch', WATCH_MAX, 200, (raw, index) => {
		const input = parseItem(ctx, index, raw, 'put');
		const existing = liveChannel(sandbox, input.channel_id);
		if (!existing) notSubscribed(ctx, index);
		const channel = fromInput(ctx, input, existing!.created);
		sandbox.store.putDoc(CHANNELS, channel.channel_id, channel);
		return success(sandbox, MESSAGES.update, channel);
	});
});
