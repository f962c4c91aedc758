// Helpers of the notification operations (docs/protocol.md §5.14, §9): `watch[]` items validated
// (§9.1), success items (§9.2), and the merge / removal of events (§9.3).
import {
	channelModules,
	CHANNELS,
	EVENT_OPERATIONS,
	liveChannel,
	resourceUri,
	watches,
} from '../../deliveries.ts';
import type { ChannelDoc } from '../../deliveries.ts';
import { errorItem } from '../../errors.ts';
import type { Details } from '../../errors.ts';
import { isDeliveryTarget } from '../../outbound.ts';
import type { Json } from '../../store.ts';
import { parseDateTime } from '../../time.ts';
import type { Ctx, Sandbox } from '../../types.ts';
import { ItemError } from '../shared.ts';

/** enable = CREATE, PUT/PATCH = UPDATE, DELETE = DELETE, GET = READ (§2.3) */
export const SCOPES = [['CRM.notifications.{ACCESS}']];
export const WATCH_MAX = 100;
const TOKEN_MAX = 50;

export const MESSAGES = {
	enable: 'Successfully subscribed for actions-watch of the given module',
	update: 'Successfully updated the subscribe details',
	remove: 'Successfully removed the subscribe details',
	disable: 'Successfully un-subscribed from actions-watch',
};

export type Mode = 'enable' | 'put' | 'patch' | 'remove';

/** The keys of a `watch[]` item (§9.1), validated; only keys present in the item are set. */
interface WatchInput {
	channel_id: string;
	events?: string[];
	notify_url?: string;
	token?: string;
	channel_expiry?: number;
	return_affected_field_values?: boolean;
	notify_on_related_action?: boolean;
	fields?: Json;
}

/** Throws the item's error (with its `json_path` in v2.1); the per-item loop answers it. */
export function fail(
	ctx: Ctx,
	index: number,
	code: string,
	details: Details,
	message?: string,
	path?: string,
): never {
	const withPath =
		ctx.v === 'v2.1' && typeof details.api_name === 'string'
			? { ...details, json_path: `$.watch[${index}].${path ?? details.api_name}` }
			: details;
	throw new ItemError(errorItem(code, withPath, message));
}

export function moduleId(sandbox: Sandbox, name: string): string | undefined {
	return (sandbox.module(name) as { id?: string } | undefined)?.id;
}

/** `details.events` of a success item: one entry per module of the channel (§9.2). */
function detailEvents(
	sandbox: Sandbox,
	channel: ChannelDoc,
	modules = channelModules(channel),
): Json[] {
	return modules.map((module) => ({
		channel_expiry: sandbox.formatTime(channel.channel_expiry),
		resource_uri: resourceUri(sandbox, channel.v, module),
		resource_id: moduleId(sandbox, module),
		resource_name: module,
		channel_id: channel.channel_id,
	}));
}

export function success(
	sandbox: Sandbox,
	message: string,
	channel: ChannelDoc,
	modules?: string[],
): Json {
	return {
		code: 'SUCCESS',
		status: 'success',
		message,
		details: { events: detailEvents(sandbox, channel, modules) },
	};
}

/** Canonical `Module.operation` list; INVALID_DATA / INVALID_MODULE per §9.1. */
function parseEvents(ctx: Ctx, index: number, value: unknown): string[] {
	const { sandbox } = ctx;
	if (!Array.isArray(value))
		fail(ctx, index, 'INVALID_DATA', { api_name: 'events', expected_data_type: 'jsonarray' });
	const list = value as unknown[];
	if (list.length === 0) fail(ctx, index, 'MANDATORY_NOT_FOUND', { api_name: 'events' });
	const events: string[] = [];
	list.forEach((raw, i) => {
		const match = typeof raw === 'string' ? /^\s*([^.\s]+)\.([A-Za-z]+)\s*$/.exec(raw) : null;
		if (!match)
			fail(ctx, index, 'INVALID_DATA', { api_name: 'events' }, 'invalid event', `events[${i}]`);
		const operation = match![2].toLowerCase();
		if (!(EVENT_OPERATIONS as readonly string[]).includes(operation)) {
			fail(
				ctx,
				index,
				'INVALID_DATA',
				{ api_name: 'events' },
				'invalid event operation',
				`events[${i}]`,
			);
		}
		const module = sandbox.module(match![1]);
		if (!module || !module.watchable) {
			fail(
				ctx,
				index,
				'INVALID_MODULE',
				{ api_name: 'events' },
				'the module name given seems to be invalid',
				`events[${i}]`,
			);
		}
		const event = `${module!.api_name}.${operation}`;
		if (!events.includes(event)) events.push(event);
	});
	return events;
}

/** A `watch[]` item validated for the mode (§9.1); throws the item's error. */
export function parseItem(ctx: Ctx, index: number, raw: unknown, mode: Mode): WatchInput {
	const { sandbox } = ctx;
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
		fail(ctx, index, 'INVALID_DATA', { api_name: 'watch', expected_data_type: 'jsonobject' });
	}
	const item = raw as Json;
	const present = (key: string) => item[key] !== undefined && item[key] !== null;

	if (!present('channel_id')) fail(ctx, index, 'MANDATORY_NOT_FOUND', { api_name: 'channel_id' });
	const id = item.channel_id;
	const channelId =
		typeof id === 'string'
			? id.trim()
			: typeof id === 'number' && Number.isSafeInteger(id)
				? String(id)
				: '';
	if (!/^\d{1,19}$/.test(channelId) || /^0+$/.test(channelId)) {
		fail(ctx, index, 'INVALID_DATA', { api_name: 'channel_id', expected_data_type: 'long' });
	}
	const input: WatchInput = { channel_id: channelId };

	const needsFull = mode === 'enable' || mode === 'put';
	if (present('events')) input.events = parseEvents(ctx, index, item.events);
	else if (needsFull || mode === 'remove')
		fail(ctx, index, 'MANDATORY_NOT_FOUND', { api_name: 'events' });
	if (mode === 'remove') return input;

	if (present('notify_url')) {
		// absolute http(s), and never the sandbox itself (its test hooks are not a receiver)
		const ok = isDeliveryTarget(item.notify_url);
		if (!ok)
			fail(
				ctx,
				index,
				'INVALID_DATA',
				{ api_name: 'notify_url', expected_data_type: 'url' },
				'invalid notify url',
			);
		input.notify_url = item.notify_url as string;
	} else if (needsFull) {
		fail(ctx, index, 'MANDATORY_NOT_FOUND', { api_name: 'notify_url' });
	}

	if (present('token')) {
		if (typeof item.token !== 'string')
			fail(ctx, index, 'INVALID_DATA', { api_name: 'token', expected_data_type: 'string' });
		const token = item.token as string;
		if (token.length > TOKEN_MAX) {
			fail(
				ctx,
				index,
				'INVALID_DATA',
				{ api_name: 'token', maximum_length: TOKEN_MAX },
				'token can contain only 50 characters',
			);
		}
		if (token !== '') input.token = token;
	}

	if (present('channel_expiry')) {
		const ms = parseDateTime(item.channel_expiry);
		if (ms === undefined)
			fail(ctx, index, 'INVALID_DATA', {
				api_name: 'channel_expiry',
				expected_data_type: 'datetime',
			});
		const now = sandbox.now();
		if (ms! <= now)
			fail(
				ctx,
				index,
				'INVALID_DATA',
				{ api_name: 'channel_expiry' },
				'channel expiry should be a future time',
			);
		if (ms! > now + sandbox.config.channelMaxExpirySec * 1000) {
			fail(
				ctx,
				index,
				'INVALID_DATA',
				{ api_name: 'channel_expiry' },
				'channel expiry exceeds the maximum allowed time',
			);
		}
		input.channel_expiry = ms;
	}

	for (const key of ['return_affected_field_values', 'notify_on_related_action'] as const) {
		if (!present(key)) continue;
		if (typeof item[key] !== 'boolean')
			fail(ctx, index, 'INVALID_DATA', { api_name: key, expected_data_type: 'boolean' });
		input[key] = item[key] as boolean;
	}

	if (present('fields')) {
		if (typeof item.fields !== 'object' || Array.isArray(item.fields)) {
			fail(ctx, index, 'INVALID_DATA', { api_name: 'fields', expected_data_type: 'jsonobject' });
		}
		input.fields = item.fields as Json;
	}
	return input;
}

function defaultExpiry(sandbox: Sandbox): number {
	return (
		sandbox.now() +
		Math.min(sandbox.config.channelDefaultExpirySec, sandbox.config.channelMaxExpirySec) * 1000
	);
}

/** A channel built from a full item (enable, PUT): keys left out take their defaults. */
export function fromInput(ctx: Ctx, input: WatchInput, created: number): ChannelDoc {
	const channel: ChannelDoc = {
		channel_id: input.channel_id,
		events: input.events!,
		notify_url: input.notify_url!,
		channel_expiry: input.channel_expiry ?? defaultExpiry(ctx.sandbox),
		return_affected_field_values: input.return_affected_field_values ?? false,
		notify_on_related_action: input.notify_on_related_action ?? true,
		v: ctx.v,
		created,
	};
	if (input.token !== undefined) channel.token = input.token;
	if (input.fields !== undefined) channel.fields = input.fields;
	return channel;
}

export function notSubscribed(
	ctx: Ctx,
	index: number,
	apiName = 'channel_id',
	message = 'the channel is not subscribed',
): never {
	return fail(ctx, index, 'NOT_SUBSCRIBED', { api_name: apiName }, message);
}

/** DisableNotification: the item's events leave the channel; a channel left with none is removed. */
export function removeEvents(ctx: Ctx, index: number, input: WatchInput): Json {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const channel = liveChannel(sandbox, input.channel_id);
	if (!channel) return notSubscribed(ctx, index);
	let events = [...channel.events];
	const touched: string[] = [];
	for (const event of input.events!) {
		const dot = event.lastIndexOf('.');
		const module = event.slice(0, dot);
		const operation = event.slice(dot + 1);
		if (operation === 'all') {
			if (!events.some((e) => e.startsWith(`${module}.`)))
				notSubscribed(ctx, index, 'events', 'the event is not subscribed');
			events = events.filter((e) => !e.startsWith(`${module}.`));
		} else {
			if (!watches(events, module, operation))
				notSubscribed(ctx, index, 'events', 'the event is not subscribed');
			if (events.includes(`${module}.all`)) {
				const rest = ['create', 'edit', 'delete']
					.filter((op) => op !== operation)
					.map((op) => `${module}.${op}`);
				events = events.flatMap((e) => (e === `${module}.all` ? rest : [e]));
			} else {
				events = events.filter((e) => e !== event);
			}
		}
		if (!touched.includes(module)) touched.push(module);
	}
	// a channel left with no events is removed (§9.3)
	if (events.length === 0) store.deleteDoc(CHANNELS, channel.channel_id);
	else store.putDoc(CHANNELS, channel.channel_id, { ...channel, events });
	return success(sandbox, MESSAGES.remove, channel, touched);
}

/** UpdateNotification: the item's keys merged into the channel. */
export function mergeInto(ctx: Ctx, index: number, input: WatchInput): Json {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const existing = liveChannel(sandbox, input.channel_id);
	if (!existing) return notSubscribed(ctx, index);
	const channel: ChannelDoc = { ...existing };
	if (input.events) {
		// events given are added to the channel's events (§9.3, union)
		let events = [...existing.events];
		for (const event of input.events) {
			const dot = event.lastIndexOf('.');
			const module = event.slice(0, dot);
			const operation = event.slice(dot + 1);
			if (operation === 'all')
				events = [...events.filter((e) => !e.startsWith(`${module}.`)), event];
			else if (!watches(events, module, operation)) events.push(event);
		}
		channel.events = events;
	}
	if (input.notify_url !== undefined) channel.notify_url = input.notify_url;
	if (input.token !== undefined) channel.token = input.token;
	if (input.channel_expiry !== undefined) channel.channel_expiry = input.channel_expiry;
	if (input.return_affected_field_values !== undefined)
		channel.return_affected_field_values = input.return_affected_field_values;
	if (input.notify_on_related_action !== undefined)
		channel.notify_on_related_action = input.notify_on_related_action;
	if (input.fields !== undefined) channel.fields = input.fields;
	store.putDoc(CHANNELS, channel.channel_id, channel);
	return success(sandbox, MESSAGES.update, channel);
}
