/* eslint-disable @n8n/community-nodes/require-node-api-error */
// Notifications (docs/protocol.md §5.14, §9): EnableNotifications, GetNotificationDetails,
// UpdateNotifications (PUT replaces), UpdateNotification (PATCH merges), DisableNotification
// (PATCH with `_delete_events: true`), DisableNotifications (DELETE ?channel_ids=). Deliveries are
// made by ../deliveries.ts from the store's change events. Test hooks: GET/DELETE /__sandbox/deliveries.
import {
	CHANNELS,
	EVENT_OPERATIONS,
	channelModules,
	deliveriesOf,
	liveChannel,
	liveChannels,
	resourceUri,
	startDeliveries,
	watches,
} from '../deliveries.ts';
import type { ChannelDoc } from '../deliveries.ts';
import { HttpError, errorItem } from '../errors.ts';
import type { Details, ErrorBody } from '../errors.ts';
import { isDeliveryTarget } from '../outbound.ts';
import { writeStatus } from '../records.ts';
import type { Ctx, Router } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';
import type { Json } from '../store.ts';
import { parseDateTime } from '../time.ts';
import { idsParam, pageOf, pagedReply, paging, wrapperList } from '../wire.ts';

/** enable = CREATE, PUT/PATCH = UPDATE, DELETE = DELETE, GET = READ (§2.3) */
const SCOPES = [['CRM.notifications.{ACCESS}']];
const WATCH_MAX = 100;
const TOKEN_MAX = 50;

const MESSAGES = {
	enable: 'Successfully subscribed for actions-watch of the given module',
	update: 'Successfully updated the subscribe details',
	remove: 'Successfully removed the subscribe details',
	disable: 'Successfully un-subscribed from actions-watch',
};

type Mode = 'enable' | 'put' | 'patch' | 'remove';

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

class ItemError extends Error {
	readonly body: ErrorBody;
	constructor(body: ErrorBody) {
		super(body.message);
		this.body = body;
	}
}

export function registerNotifications(router: Router, sandbox: Sandbox): void {
	startDeliveries(sandbox);
	const { store } = sandbox;
	const opts = { scopes: SCOPES };

	const fail = (ctx: Ctx, index: number, code: string, details: Details, message?: string, path?: string): never => {
		const withPath =
			ctx.v === 'v2.1' && typeof details.api_name === 'string'
				? { ...details, json_path: `$.watch[${index}].${path ?? details.api_name}` }
				: details;
		throw new ItemError(errorItem(code, withPath, message));
	};

	const moduleId = (name: string): string | undefined => (sandbox.module(name) as { id?: string } | undefined)?.id;

	/** `details.events` of a success item: one entry per module of the channel (§9.2). */
	const detailEvents = (channel: ChannelDoc, modules = channelModules(channel)): Json[] =>
		modules.map((module) => ({
			channel_expiry: sandbox.formatTime(channel.channel_expiry),
			resource_uri: resourceUri(sandbox, channel.v, module),
			resource_id: moduleId(module),
			resource_name: module,
			channel_id: channel.channel_id,
		}));

	const success = (message: string, channel: ChannelDoc, modules?: string[]): Json => ({
		code: 'SUCCESS',
		status: 'success',
		message,
		details: { events: detailEvents(channel, modules) },
	});

	/** Canonical `Module.operation` list; INVALID_DATA / INVALID_MODULE per §9.1. */
	const parseEvents = (ctx: Ctx, index: number, value: unknown): string[] => {
		if (!Array.isArray(value)) fail(ctx, index, 'INVALID_DATA', { api_name: 'events', expected_data_type: 'jsonarray' });
		const list = value as unknown[];
		if (list.length === 0) fail(ctx, index, 'MANDATORY_NOT_FOUND', { api_name: 'events' });
		const events: string[] = [];
		list.forEach((raw, i) => {
			const match = typeof raw === 'string' ? /^\s*([^.\s]+)\.([A-Za-z]+)\s*$/.exec(raw) : null;
			if (!match) fail(ctx, index, 'INVALID_DATA', { api_name: 'events' }, 'invalid event', `events[${i}]`);
			const operation = match![2].toLowerCase();
			if (!(EVENT_OPERATIONS as readonly string[]).includes(operation)) {
				fail(ctx, index, 'INVALID_DATA', { api_name: 'events' }, 'invalid event operation', `events[${i}]`);
			}
			const module = sandbox.module(match![1]);
			if (!module || !module.watchable) {
				fail(ctx, index, 'INVALID_MODULE', { api_name: 'events' }, 'the module name given seems to be invalid', `events[${i}]`);
			}
			const event = `${module!.api_name}.${operation}`;
			if (!events.includes(event)) events.push(event);
		});
		return events;
	};

	const parseItem = (ctx: Ctx, index: number, raw: unknown, mode: Mode): WatchInput => {
		if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
			fail(ctx, index, 'INVALID_DATA', { api_name: 'watch', expected_data_type: 'jsonobject' });
		}
		const item = raw as Json;
		const present = (key: string) => item[key] !== undefined && item[key] !== null;

		if (!present('channel_id')) fail(ctx, index, 'MANDATORY_NOT_FOUND', { api_name: 'channel_id' });
		const id = item.channel_id;
		const channelId = typeof id === 'string' ? id.trim() : typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : '';
		if (!/^\d{1,19}$/.test(channelId) || /^0+$/.test(channelId)) {
			fail(ctx, index, 'INVALID_DATA', { api_name: 'channel_id', expected_data_type: 'long' });
		}
		const input: WatchInput = { channel_id: channelId };

		const needsFull = mode === 'enable' || mode === 'put';
		if (present('events')) input.events = parseEvents(ctx, index, item.events);
		else if (needsFull || mode === 'remove') fail(ctx, index, 'MANDATORY_NOT_FOUND', { api_name: 'events' });
		if (mode === 'remove') return input;

		if (present('notify_url')) {
			// absolute http(s), and never the sandbox itself (its test hooks are not a receiver)
			const ok = isDeliveryTarget(item.notify_url);
			if (!ok) fail(ctx, index, 'INVALID_DATA', { api_name: 'notify_url', expected_data_type: 'url' }, 'invalid notify url');
			input.notify_url = item.notify_url as string;
		} else if (needsFull) {
			fail(ctx, index, 'MANDATORY_NOT_FOUND', { api_name: 'notify_url' });
		}

		if (present('token')) {
			if (typeof item.token !== 'string') fail(ctx, index, 'INVALID_DATA', { api_name: 'token', expected_data_type: 'string' });
			const token = item.token as string;
			if (token.length > TOKEN_MAX) {
				fail(ctx, index, 'INVALID_DATA', { api_name: 'token', maximum_length: TOKEN_MAX }, 'token can contain only 50 characters');
			}
			if (token !== '') input.token = token;
		}

		if (present('channel_expiry')) {
			const ms = parseDateTime(item.channel_expiry);
			if (ms === undefined) fail(ctx, index, 'INVALID_DATA', { api_name: 'channel_expiry', expected_data_type: 'datetime' });
			const now = sandbox.now();
			if (ms! <= now) fail(ctx, index, 'INVALID_DATA', { api_name: 'channel_expiry' }, 'channel expiry should be a future time');
			if (ms! > now + sandbox.config.channelMaxExpirySec * 1000) {
				fail(ctx, index, 'INVALID_DATA', { api_name: 'channel_expiry' }, 'channel expiry exceeds the maximum allowed time');
			}
			input.channel_expiry = ms;
		}

		for (const key of ['return_affected_field_values', 'notify_on_related_action'] as const) {
			if (!present(key)) continue;
			if (typeof item[key] !== 'boolean') fail(ctx, index, 'INVALID_DATA', { api_name: key, expected_data_type: 'boolean' });
			input[key] = item[key] as boolean;
		}

		if (present('fields')) {
			if (typeof item.fields !== 'object' || Array.isArray(item.fields)) {
				fail(ctx, index, 'INVALID_DATA', { api_name: 'fields', expected_data_type: 'jsonobject' });
			}
			input.fields = item.fields as Json;
		}
		return input;
	};

	const defaultExpiry = (): number =>
		sandbox.now() + Math.min(sandbox.config.channelDefaultExpirySec, sandbox.config.channelMaxExpirySec) * 1000;

	/** A channel built from a full item (enable, PUT): keys left out take their defaults. */
	const fromInput = (ctx: Ctx, input: WatchInput, created: number): ChannelDoc => {
		const channel: ChannelDoc = {
			channel_id: input.channel_id,
			events: input.events!,
			notify_url: input.notify_url!,
			channel_expiry: input.channel_expiry ?? defaultExpiry(),
			return_affected_field_values: input.return_affected_field_values ?? false,
			notify_on_related_action: input.notify_on_related_action ?? true,
			v: ctx.v,
			created,
		};
		if (input.token !== undefined) channel.token = input.token;
		if (input.fields !== undefined) channel.fields = input.fields;
		return channel;
	};

	const notSubscribed = (ctx: Ctx, index: number, apiName = 'channel_id', message = 'the channel is not subscribed'): never =>
		fail(ctx, index, 'NOT_SUBSCRIBED', { api_name: apiName }, message);

	/** Runs one handler per `watch` item; item errors become error items, in input order (§3.5). */
	const perItem = (ctx: Ctx, handle: (raw: unknown, index: number) => Json): Json[] => {
		const items = wrapperList(ctx, 'watch', WATCH_MAX);
		return store.transaction(() =>
			items.map((raw, index) => {
				try {
					return handle(raw, index);
				} catch (error) {
					if (error instanceof ItemError) return error.body as Json;
					throw error;
				}
			}),
		);
	};

	// EnableNotifications
	router.post(
		'/actions/watch',
		(ctx) => {
			const results = perItem(ctx, (raw, index) => {
				const input = parseItem(ctx, index, raw, 'enable');
				if (liveChannel(sandbox, input.channel_id)) {
					fail(ctx, index, 'DUPLICATE_DATA', { api_name: 'channel_id' }, 'the channel is already subscribed');
				}
				const channel = fromInput(ctx, input, sandbox.now());
				store.putDoc(CHANNELS, channel.channel_id, channel);
				return success(MESSAGES.enable, channel);
			});
			return { status: writeStatus(results, 200), body: { watch: results } };
		},
		opts,
	);

	// GetNotificationDetails: one item per (channel, module) pair (§9.2)
	router.get(
		'/actions/watch',
		(ctx) => {
			const p = paging(ctx);
			const moduleName = ctx.q('module');
			let module: string | undefined;
			if (moduleName !== undefined) {
				const def = sandbox.module(moduleName);
				if (!def) throw new HttpError('INVALID_MODULE', { param: 'module' }, 'the module name given seems to be invalid');
				module = def.api_name;
			}
			const channelId = ctx.q('channel_id');
			if (channelId !== undefined && !/^\d+$/.test(channelId)) {
				throw HttpError.invalidData({ [ctx.v === 'v2.1' ? 'param_name' : 'param']: 'channel_id' }, 'invalid channel id');
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
						resource_id: moduleId(name),
						resource_name: name,
					});
					rows.push(row);
				}
			}
			return pagedReply('watch', p, pageOf(rows, p));
		},
		opts,
	);

	// UpdateNotifications: replaces every detail of each channel
	router.put(
		'/actions/watch',
		(ctx) => {
			const results = perItem(ctx, (raw, index) => {
				const input = parseItem(ctx, index, raw, 'put');
				const existing = liveChannel(sandbox, input.channel_id);
				if (!existing) notSubscribed(ctx, index);
				const channel = fromInput(ctx, input, existing!.created);
				store.putDoc(CHANNELS, channel.channel_id, channel);
				return success(MESSAGES.update, channel);
			});
			return { status: writeStatus(results, 200), body: { watch: results } };
		},
		opts,
	);

	const removeEvents = (ctx: Ctx, index: number, input: WatchInput): Json => {
		const channel = liveChannel(sandbox, input.channel_id);
		if (!channel) return notSubscribed(ctx, index);
		let events = [...channel.events];
		const touched: string[] = [];
		for (const event of input.events!) {
			const dot = event.lastIndexOf('.');
			const module = event.slice(0, dot);
			const operation = event.slice(dot + 1);
			if (operation === 'all') {
				if (!events.some((e) => e.startsWith(`${module}.`))) notSubscribed(ctx, index, 'events', 'the event is not subscribed');
				events = events.filter((e) => !e.startsWith(`${module}.`));
			} else {
				if (!watches(events, module, operation)) notSubscribed(ctx, index, 'events', 'the event is not subscribed');
				if (events.includes(`${module}.all`)) {
					const rest = ['create', 'edit', 'delete'].filter((op) => op !== operation).map((op) => `${module}.${op}`);
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
		return success(MESSAGES.remove, channel, touched);
	};

	const mergeInto = (ctx: Ctx, index: number, input: WatchInput): Json => {
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
				if (operation === 'all') events = [...events.filter((e) => !e.startsWith(`${module}.`)), event];
				else if (!watches(events, module, operation)) events.push(event);
			}
			channel.events = events;
		}
		if (input.notify_url !== undefined) channel.notify_url = input.notify_url;
		if (input.token !== undefined) channel.token = input.token;
		if (input.channel_expiry !== undefined) channel.channel_expiry = input.channel_expiry;
		if (input.return_affected_field_values !== undefined) channel.return_affected_field_values = input.return_affected_field_values;
		if (input.notify_on_related_action !== undefined) channel.notify_on_related_action = input.notify_on_related_action;
		if (input.fields !== undefined) channel.fields = input.fields;
		store.putDoc(CHANNELS, channel.channel_id, channel);
		return success(MESSAGES.update, channel);
	};

	// UpdateNotification (merge) and DisableNotification (`_delete_events: true`) share PATCH
	router.patch(
		'/actions/watch',
		(ctx) => {
			const results = perItem(ctx, (raw, index) => {
				const flag = raw && typeof raw === 'object' ? (raw as Json)._delete_events : undefined;
				if (flag !== undefined && flag !== null && typeof flag !== 'boolean') {
					fail(ctx, index, 'INVALID_DATA', { api_name: '_delete_events', expected_data_type: 'boolean' });
				}
				if (flag === true) return removeEvents(ctx, index, parseItem(ctx, index, raw, 'remove'));
				return mergeInto(ctx, index, parseItem(ctx, index, raw, 'patch'));
			});
			return { status: writeStatus(results, 200), body: { watch: results } };
		},
		opts,
	);

	// DisableNotifications
	router.delete(
		'/actions/watch',
		(ctx) => {
			const ids = idsParam(ctx, 'channel_ids', WATCH_MAX, true)!;
			const results = store.transaction(() =>
				ids.map((id) => {
					const channel = liveChannel(sandbox, id);
					if (!channel) return errorItem('NOT_SUBSCRIBED', { api_name: 'channel_ids', channel_id: id }, 'the channel is not subscribed') as Json;
					store.deleteDoc(CHANNELS, id);
					return success(MESSAGES.disable, channel);
				}),
			);
			return { status: writeStatus(results, 200), body: { watch: results } };
		},
		opts,
	);

	// ---- test hooks ------------------------------------------------------------------------------
	const admin = { root: 'admin' as const, public: true };

	/** deliveries and their attempts, oldest first: `?channel_id=…&outcome=delivered|failed|pending` */
	router.get(
		'/deliveries',
		(ctx) => {
			const channelId = ctx.q('channel_id');
			const outcome = ctx.q('outcome');
			const log = deliveriesOf(sandbox)?.log ?? [];
			const deliveries = log.filter((d) => (!channelId || d.channel_id === channelId) && (!outcome || d.outcome === outcome));
			return { body: { deliveries } };
		},
		admin,
	);

	router.delete('/deliveries', () => ({ body: { cleared: (deliveriesOf(sandbox)?.log ?? []).splice(0).length } }), admin);
}
