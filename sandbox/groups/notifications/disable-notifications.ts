import { CHANNELS, liveChannel } from '../../deliveries.ts';
import { errorItem } from '../../errors.ts';
import { operation } from '../../router.ts';
import { idsParam } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { MESSAGES, SCOPES, success, WATCH_MAX } from './shared.ts';

/** DisableNotifications: DELETE /crm/{v}/actions/watch?channel_ids= (docs/protocol.md §5.14). */
export const disableNotifications = operation(
	'DELETE',
	'/actions/watch',
	{ scopes: SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const ids = idsParam(ctx, 'channel_ids', WATCH_MAX, true)!;
		const results = eachItem(ctx, ids, (id) => {
			const channel = liveChannel(sandbox, id);
			if (!channel)
				return errorItem(
					'NOT_SUBSCRIBED',
					{ api_name: 'channel_ids', channel_id: id },
					'the channel is not subscribed',
				);
			sandbox.store.deleteDoc(CHANNELS, id);
			return success(sandbox, MESSAGES.disable, channel);
		});
		return resultsReply('watch', 200, results);
	},
);
