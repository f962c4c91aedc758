import { CHANNELS, liveChannel } from '../../deliveries.ts';
import { operation } from '../../router.ts';
import { writeEach } from '../shared.ts';
import { fail, fromInput, MESSAGES, parseItem, SCOPES, success, WATCH_MAX } from './shared.ts';

/** EnableNotifications: POST /crm/{v}/actions/watch (docs/protocol.md §5.14). */
export const enableNotifications = operation(
	'POST',
	'/actions/watch',
	{ scopes: SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		return writeEach(ctx, 'watch', WATCH_MAX, 200, (raw, index) => {
			const input = parseItem(ctx, index, raw, 'enable');
			if (liveChannel(sandbox, input.channel_id)) {
				fail(
					ctx,
					index,
					'DUPLICATE_DATA',
					{ api_name: 'channel_id' },
					'the channel is already subscribed',
				);
			}
			const channel = fromInput(ctx, input, sandbox.now());
			sandbox.store.putDoc(CHANNELS, channel.channel_id, channel);
			return success(sandbox, MESSAGES.enable, channel);
		});
	},
);
