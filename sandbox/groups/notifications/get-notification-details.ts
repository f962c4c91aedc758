import { channelModules, liveChannels, resourceUri } from '../../deliveries.ts';
import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { pagedReply, pageOf, paging, paramKey } from '../../wire.ts';
import { moduleId, SCOPES } from './shared.ts';

/** GetNotificationDetails: GET /crm/{v}/actions/watch, one item per (channel, module) pair (docs/protocol.md §5.14, §9.2). */
export const getNotificationDetails = operation(
	'GET',
	'/actions/watch',
	{ scopes: SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const p = paging(ctx);
		const moduleName = ctx.q('module');
		let module: string | undefined;
		if (moduleName !== undefined) {
			const def = sandbox.module(moduleName);
			if (!def)
				throw new HttpError(
					'INVALID_MODULE',
					{ param: 'module' },
					'the module name given seems to be invalid',
				);
			module = def.api_name;
		}
		const channelId = ctx.q('channel_id');
		if (channelId !== undefined && !/^\d+$/.test(channelId)) {
			throw HttpError.invalidData({ [paramKey(ctx)]: 'channel_id' }, 'invalid channel id');
		}
		const rows: Json[] = [];
		for (const channel of liveChannels(sandbox)) {
			if (channelId !== undefined && channel.channel_id !== channelId) continue;
			for (const name of channelModules(channel)) {
				if (module !== undefined && name !== module) continue;
				const row: Json = {
					channel_id: channel.channel_id,
					events: channel.events.filter((e) => e.startsWith(`${name}.`)),
					notify_url: channel.notify_url,
				};
				if (channel.token !== undefined) row.token = channel.token;
				Object.assign(row, {
					channel_expiry: sandbox.formatTime(channel.channel_expiry),
					notify_on_related_action: channel.notify_on_related_action,
					return_affected_field_values: channel.return_affected_field_values,
				});
				if (channel.fields !== undefined) row.fields = channel.fields;
				Object.assign(row, {
					resource_uri: resourceUri(sandbox, channel.v, name),
					resource_id: moduleId(sandbox, name),
					resource_name: name,
				});
				rows.push(row);
			}
		}
		return pagedReply('watch', p, pageOf(rows, p));
	},
);
