import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { writeEach } from '../shared.ts';
import { fail, mergeInto, parseItem, removeEvents, SCOPES, WATCH_MAX } from './shared.ts';

/**
 * UpdateNotification (merge) and DisableNotification (`_delete_events: true`) share
 * PATCH /crm/{v}/actions/watch (docs/protocol.md §5.14); the flag decides per item.
 */
export const updateNotification = operation('PATCH', '/actions/watch', { scopes: SCOPES }, (ctx) =>
	writeEach(ctx, 'watch', WATCH_MAX, 200, (raw, index) => {
		const flag = raw && typeof raw === 'object' ? (raw as Json)._delete_events : undefined;
		if (flag !== undefined && flag !== null && typeof flag !== 'boolean') {
			fail(ctx, index, 'INVALID_DATA', {
				api_name: '_delete_events',
				expected_data_type: 'boolean',
			});
		}
		if (flag === true) return removeEvents(ctx, index, parseItem(ctx, index, raw, 'remove'));
		return mergeInto(ctx, index, parseItem(ctx, index, raw, 'patch'));
	}),
);
