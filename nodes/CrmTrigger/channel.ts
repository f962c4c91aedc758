import type { CronExpression, IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toUtcWireTime } from '../shared/formats/dates';
import { crmApiError, crmRequest, crmRequestAllItems, isErrorItem } from '../shared/transport';
import type { CrmContext, CrmErrorBody } from '../shared/transport';
import {
	MAX_EXPIRY_MS,
	WATCH_PATH,
	newChannelId,
	newToken,
	wishKeys,
} from '../shared/changes/watchChannels';
import type { ChannelWish } from '../shared/changes/watchChannels';

export type { ChannelWish } from '../shared/changes/watchChannels';

/**
 * The watch channel of one trigger node (docs/protocol.md §9), kept in the workflow's node static
 * data: the channel id and secret token are never held in module state.
 */
export interface ChannelState extends IDataObject {
	channelId?: string;
	token?: string;
	notifyUrl?: string;
	events?: string[];
	affectedValues?: boolean;
	relatedActions?: boolean;
	/** epoch ms of `channel_expiry` as the CRM answered it */
	expiresAt?: number;
	/** the lifetime the CRM granted at subscription; renewals ask for the same */
	lifetimeMs?: number;
}

/** The contract's longest expiry is now + 1 day (§6); ask a minute less so clock skew cannot exceed it. */
export const MAX_LIFETIME_MS = MAX_EXPIRY_MS;
const SKEW_MARGIN_MS = 60 * 1000;
/** Renew once a third of the lifetime has passed (a 1-day channel: every 8 hours). */
const RENEW_AFTER = 1 / 3;
/**
 * The renewal cron (n8n's scheduling helper, 6-field cron) for a channel lifetime: a tick every
 * sixth of the lifetime, on a period cron can express, so that a renewal (due once a third has
 * passed) always happens with at least half the lifetime left. 30-s channels tick every 5 s,
 * 1-day channels every 3 hours.
 */
export function renewalCron(lifetimeMs: number): CronExpression {
	const periodSec = Math.max(1, Math.floor(lifetimeMs / 6000));
	const fit = (limit: number, steps: number[]) => steps.filter((s) => s <= limit).pop() ?? steps[0];
	if (periodSec < 60)
		return `*/${fit(periodSec, [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30])} * * * * *` as CronExpression;
	if (periodSec < 3600)
		return `0 */${fit(Math.floor(periodSec / 60), [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30])} * * * *` as CronExpression;
	return `0 0 */${fit(Math.floor(periodSec / 3600), [1, 2, 3, 4, 6, 8, 12])} * * *` as CronExpression;
}

function expiryOf(result: IDataObject): number | undefined {
	const events = ((result.details as IDataObject | undefined)?.events ?? []) as IDataObject[];
	const ms = Date.parse(String(events[0]?.channel_expiry ?? ''));
	return Number.isNaN(ms) ? undefined : ms;
}

function isExpiryRefusal(result: IDataObject): boolean {
	return (
		isErrorItem(result) &&
		result.code === 'INVALID_DATA' &&
		(result.details as IDataObject)?.api_name === 'channel_expiry'
	);
}

/** One `watch` call with one item; answers the item's result (success or error item). */
async function watchCall(
	this: CrmContext,
	method: 'POST' | 'PUT' | 'PATCH',
	item: IDataObject,
): Promise<IDataObject> {
	return (
		(
			await crmRequest(this, {
				method,
				path: WATCH_PATH,
				body: { watch: [item] },
				itemListKey: 'watch',
			})
		)[0] ?? {}
	);
}

function channelCallFailed(ctx: CrmContext, result: IDataObject, prefix: string): never {
	throw crmApiError(ctx.getNode(), result as CrmErrorBody, { prefix });
}

/**
 * EnableNotifications for the wished events at the wished URL, with the longest expiry the CRM
 * allows: first now + 1 day, then (if the CRM refuses that expiry, as a sandbox with a shorter
 * maximum does) the CRM's default. Stores channel id, token, expiry and lifetime in `state`.
 * `reuse` re-creates a lost channel under the same id and token.
 */
export async function subscribe(
	this: CrmContext,
	state: ChannelState,
	wish: ChannelWish,
	reuse?: { channelId: string; token: string },
): Promise<void> {
	const channelId = reuse?.channelId ?? newChannelId();
	const token = reuse?.token ?? newToken();
	const item: IDataObject = { channel_id: channelId, ...wishKeys(wish), token };
	let requestedAt = Date.now();
	let result = await watchCall.call(this, 'POST', {
		...item,
		channel_expiry: toUtcWireTime(requestedAt + MAX_LIFETIME_MS - SKEW_MARGIN_MS),
	});
	if (isExpiryRefusal(result)) {
		requestedAt = Date.now();
		result = await watchCall.call(this, 'POST', item);
	}
	if (isErrorItem(result))
		channelCallFailed(this, result, 'Could not subscribe the watch channel: ');
	const expiresAt = expiryOf(result) ?? requestedAt + 60 * 60 * 1000;
	Object.assign(state, {
		channelId,
		token,
		notifyUrl: wish.notifyUrl,
		events: wish.events,
		affectedValues: wish.affectedValues,
		relatedActions: wish.relatedActions,
		expiresAt,
		lifetimeMs: Math.max(1000, Math.round((expiresAt - requestedAt) / 1000) * 1000),
	});
}

/**
 * Extends the stored channel by its lifetime (UpdateNotification with `channel_expiry`, §9.3).
 * A channel the CRM no longer knows (expired, removed) is re-created under the same id and token.
 */
export async function renew(
	this: CrmContext,
	state: ChannelState,
): Promise<'renewed' | 'recreated'> {
	if (!state.channelId || !state.token || !state.notifyUrl || !state.events) {
		throw new NodeOperationError(this.getNode(), 'The trigger has no watch channel to renew');
	}
	const lifetime = state.lifetimeMs ?? MAX_LIFETIME_MS - SKEW_MARGIN_MS;
	let result = await watchCall.call(this, 'PATCH', {
		channel_id: state.channelId,
		channel_expiry: toUtcWireTime(Date.now() + lifetime),
	});
	if (isExpiryRefusal(result)) {
		// the CRM's maximum shrank: replace the details and take its default expiry
		result = await watchCall.call(this, 'PUT', {
			channel_id: state.channelId,
			...wishKeys(storedWish(state)),
			token: state.token,
		});
	}
	if (isErrorItem(result) && result.code === 'NOT_SUBSCRIBED') {
		await subscribe.call(this, state, storedWish(state), {
			channelId: state.channelId,
			token: state.token,
		});
		return 'recreated';
	}
	if (isErrorItem(result)) channelCallFailed(this, result, 'Could not renew the watch channel: ');
	state.expiresAt = expiryOf(result) ?? state.expiresAt;
	return 'renewed';
}

/** Is a third of the channel's lifetime gone (or its expiry unknown)? */
export function renewalDue(state: ChannelState, now = Date.now()): boolean {
	if (!state.channelId) return false;
	if (!state.expiresAt || !state.lifetimeMs) return true;
	return state.expiresAt - now < state.lifetimeMs * (1 - RENEW_AFTER);
}

function storedWish(state: ChannelState): ChannelWish {
	return {
		events: state.events ?? [],
		notifyUrl: state.notifyUrl ?? '',
		affectedValues: state.affectedValues === true,
		relatedActions: state.relatedActions !== false,
	};
}

/** GetNotificationDetails rows (one per channel and module), all pages; `[]` for 204. */
export async function listChannels(this: CrmContext, channelId?: string): Promise<IDataObject[]> {
	return await crmRequestAllItems(this, {
		path: WATCH_PATH,
		rootProperty: 'watch',
		qs: channelId ? { channel_id: channelId } : {},
	});
}

/** The rows of one channel merged into one view: events of every module, flags, URL, token. */
export function channelView(rows: IDataObject[]): ChannelWish & { token?: string } {
	const events = rows.flatMap((r) => (r.events as string[] | undefined) ?? []);
	const first = rows[0] ?? {};
	return {
		events,
		notifyUrl: String(first.notify_url ?? ''),
		token: first.token as string | undefined,
		affectedValues: first.return_affected_field_values === true,
		relatedActions: first.notify_on_related_action !== false,
	};
}

/** Same events (as sets), URL, flags and token as wished? */
export function matches(
	view: ChannelWish & { token?: string },
	wish: ChannelWish,
	token: string | undefined,
): boolean {
	const a = [...new Set(view.events)].sort();
	const b = [...new Set(wish.events)].sort();
	return (
		view.notifyUrl === wish.notifyUrl &&
		view.token === token &&
		view.affectedValues === wish.affectedValues &&
		view.relatedActions === wish.relatedActions &&
		a.length === b.length &&
		a.every((e, i) => e === b[i])
	);
}

/** DisableNotifications; channels the CRM does not know (NOT_SUBSCRIBED) count as disabled. */
export async function disable(this: CrmContext, channelIds: string[]): Promise<void> {
	const ids = [...new Set(channelIds)];
	for (let start = 0; start < ids.length; start += 100) {
		const results = await crmRequest(this, {
			method: 'DELETE',
			path: WATCH_PATH,
			qs: { channel_ids: ids.slice(start, start + 100).join(',') },
			itemListKey: 'watch',
		});
		const failed = results.find((r) => isErrorItem(r) && r.code !== 'NOT_SUBSCRIBED');
		if (failed) channelCallFailed(this, failed, 'Could not disable the watch channel: ');
	}
}

/** Channel ids subscribed at a URL (orphans of earlier activations included). */
export async function channelIdsAt(this: CrmContext, notifyUrl: string): Promise<string[]> {
	const rows = await listChannels.call(this);
	return [
		...new Set(rows.filter((r) => r.notify_url === notifyUrl).map((r) => String(r.channel_id))),
	];
}
