import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyRouting,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsField } from '../../../shared/description/collections';
import { dateTimeMillis, toUtcWireTime } from '../../../shared/formats/dates';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { crmRouting, runBatched } from '../../../shared/transport';
import { getParameter } from '../../../shared/parameters';
import {
	MAX_EXPIRY_MS,
	TOKEN_MAX,
	WATCH_MAX,
	WATCH_PATH,
	wishKeys,
} from '../../../shared/changes/watchChannels';

type Ctx = IExecuteFunctions | IExecuteSingleFunctions;

export const channelIdField: INodeProperties = {
	displayName: 'Channel ID',
	name: 'channelId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '1000000068001',
	description: 'Numeric ID of the watch channel',
};

/** A module of the watchable list (getWatchableModules); `description` ends with the lint's "Choose from the list" sentence. */
export function watchableModuleField(description: string): INodeProperties {
	return {
		displayName: 'Module Name or ID',
		name: 'module',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getWatchableModules' },
		default: '',
		description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

/** Events as module + operation pairs: `Leads.create`, `Deals.all` (§9.1). */
export function eventsField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Events',
		name: 'eventsUi',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Event',
		options: [
			{
				displayName: 'Event',
				name: 'event',
				values: [
					watchableModuleField('Module to watch'),
					optionsField(
						'Event Type',
						'eventType',
						{ All: 'all', Create: 'create', Delete: 'delete', Edit: 'edit' },
						'all',
					),
				],
			},
		],
		...overrides,
	};
}

export const notifyUrlField: INodeProperties = {
	displayName: 'Notify URL',
	name: 'notifyUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://n8n.example.com/webhook/7f3c',
	description:
		'Absolute http(s) URL the CRM POSTs each change to; its query string is echoed as query_params',
};

/** Token, expiry and the two flags of a subscription (§9.1). */
export const subscriptionOptions: INodeProperties[] = [
	{
		displayName: 'Channel Expiry',
		name: 'channelExpiry',
		type: 'dateTime',
		default: '',
		description:
			'When the channel lapses; at most one day ahead (default: one hour after the call)',
	},
	{
		displayName: 'Notify on Related Actions',
		name: 'notifyOnRelatedAction',
		type: 'boolean',
		default: true,
		description:
			'Whether changes through related-record actions (link, delink, related update) are delivered',
	},
	{
		displayName: 'Return Affected Field Values',
		name: 'returnAffectedFieldValues',
		type: 'boolean',
		default: false,
		description: 'Whether insert and update deliveries carry the new values of the changed fields',
	},
	{
		displayName: 'Token',
		name: 'token',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			'Secret echoed in every delivery so the receiver can verify it (at most 50 characters)',
	},
];

/** The "Options" collection of a subscription (Enable, Update in Replace mode). */
export const subscriptionOptionsField: INodeProperties = optionsCollection(subscriptionOptions);

export function checkChannelId(
	ctx: Ctx,
	value: unknown,
	itemIndex: number,
	parameter = 'Channel ID',
): string {
	const id = String(value ?? '').trim();
	if (!/^\d{1,19}$/.test(id) || /^0+$/.test(id)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${parameter} must be a number of at most 19 digits, got "${id}"`,
			{ itemIndex },
		);
	}
	return id;
}

/** `Module.operation` strings of the events collection; at least one when required. */
export function eventsOf(
	ctx: Ctx,
	raw: unknown,
	itemIndex: number,
	required: boolean,
): string[] | undefined {
	const entries = ((raw as IDataObject | undefined)?.event ?? []) as Array<{
		module?: string;
		eventType?: string;
	}>;
	const events = entries.map((e, i) => {
		const module = String(e.module ?? '').trim();
		if (!module)
			throw new NodeOperationError(ctx.getNode(), `Events: entry ${i + 1} names no module`, {
				itemIndex,
			});
		return `${module}.${e.eventType ?? 'all'}`;
	});
	if (events.length === 0) {
		if (required)
			throw new NodeOperationError(ctx.getNode(), 'Events: add at least one module and operation', {
				itemIndex,
			});
		return undefined;
	}
	return [...new Set(events)];
}

export function checkNotifyUrl(ctx: Ctx, value: unknown, itemIndex: number): string {
	const url = String(value ?? '').trim();
	let ok = false;
	try {
		const parsed = new URL(url);
		ok = parsed.protocol === 'http:' || parsed.protocol === 'https:';
	} catch {
		ok = false;
	}
	if (!ok)
		throw new NodeOperationError(
			ctx.getNode(),
			`Notify URL must be an absolute http(s) URL, got "${url}"`,
			{ itemIndex },
		);
	return url;
}

/** Subscription options → `watch` item keys, validated against the contract's limits. */
export function optionKeys(ctx: Ctx, options: IDataObject, itemIndex: number): IDataObject {
	const keys: IDataObject = {};
	if (options.token !== undefined && options.token !== '') {
		const token = String(options.token);
		if (token.length > TOKEN_MAX) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Token is ${token.length} characters long; the CRM accepts at most ${TOKEN_MAX}`,
				{ itemIndex },
			);
		}
		keys.token = token;
	}
	if (options.channelExpiry !== undefined && options.channelExpiry !== '') {
		const raw = options.channelExpiry;
		const ms = dateTimeMillis(raw, ctx.getTimezone());
		if (ms === undefined) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Channel Expiry is not a valid date and time: "${String(raw)}"`,
				{ itemIndex },
			);
		}
		const now = Date.now();
		if (ms <= now)
			throw new NodeOperationError(ctx.getNode(), 'Channel Expiry must be in the future', {
				itemIndex,
			});
		if (ms > now + MAX_EXPIRY_MS) {
			throw new NodeOperationError(ctx.getNode(), 'Channel Expiry can be at most one day ahead', {
				itemIndex,
			});
		}
		keys.channel_expiry = toUtcWireTime(ms);
	}
	Object.assign(
		keys,
		wishKeys({
			affectedValues:
				typeof options.returnAffectedFieldValues === 'boolean'
					? options.returnAffectedFieldValues
					: undefined,
			relatedActions:
				typeof options.notifyOnRelatedAction === 'boolean'
					? options.notifyOnRelatedAction
					: undefined,
		}),
	);
	return keys;
}

/**
 * Every detail of a channel from the item, as Enable and Update in Replace mode send it: the events,
 * the notify URL and the options.
 */
export function channelDetails(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return {
		...wishKeys({
			events: eventsOf(ctx, getParameter(ctx, 'eventsUi', itemIndex, {}), itemIndex, true),
			notifyUrl: checkNotifyUrl(ctx, getParameter(ctx, 'notifyUrl', itemIndex), itemIndex),
		}),
		...optionKeys(ctx, getParameter(ctx, 'options', itemIndex, {}) as IDataObject, itemIndex),
	};
}

/**
 * A routed request to the watch route (§9): `method` on /actions/watch, `preSend` building the
 * request from the item, the items of the answer under `watch`.
 */
export function watchRouting(
	method: 'GET' | 'PATCH' | 'DELETE',
	preSend?: (
		this: IExecuteSingleFunctions,
		request: IHttpRequestOptions,
	) => Promise<IHttpRequestOptions>,
): INodePropertyRouting {
	return crmRouting(
		{
			request: { method, url: WATCH_PATH },
			...(preSend ? { send: { preSend: [preSend] } } : {}),
		},
		{ rootProperty: 'watch' },
	);
}

/** Output of a write: the channel id first, then the CRM's result item. */
function resultJson(channelId: string, result: IDataObject, extra: IDataObject = {}): IDataObject {
	return { channel_id: channelId, ...extra, ...result };
}

/**
 * Enable and Update: `watch` entries (each with its `channel_id`) sent up to 100 per request, one
 * request per method (§9.1); each item outputs its channel id and the CRM's result item.
 */
export async function runWatchBatched(
	this: IExecuteFunctions,
	build: (itemIndex: number) => { method: 'POST' | 'PUT' | 'PATCH'; payload: IDataObject },
): Promise<INodeExecutionData[][]> {
	const channelIds: string[] = [];
	return await runBatched(this, {
		batchSize: WATCH_MAX,
		build: (itemIndex) => {
			const { method, payload } = build(itemIndex);
			channelIds[itemIndex] = String(payload.channel_id);
			return { key: method, payload };
		},
		request: (method, watch) => ({
			method: method as 'POST' | 'PUT' | 'PATCH',
			path: WATCH_PATH,
			body: { watch },
			itemListKey: 'watch',
		}),
		toJson: (result, itemIndex) => resultJson(channelIds[itemIndex], result),
	});
}
