// Watch channels and their deliveries (docs/protocol.md §9). The store publishes one ChangeEvent per
// module + operation per transaction, whatever API made the change (single, batch, upsert, mass
// update, lead conversion, bulk write…); every live channel watching that module + operation gets
// one POST of the §9.4 body, with up to `deliveryRetryDelaysMs.length` attempts (§9.5). Channels
// are JSON documents; an expired channel is treated as absent everywhere and purged when seen.
// Fault injection (faults.ts): deliveries never sent, sent twice (after the first, or both at once),
// answers lost (the CRM retries what the receiver already got) and a shorter answer timeout.
import type { Sandbox } from './types.ts';
import type { ChangeEvent, ChangeOperation, Json } from './store.ts';

export const CHANNELS = 'channels';

/** The operations of a watch event (`Leads.create`); `all` = the three (§9.1). */
export const EVENT_OPERATIONS = ['create', 'edit', 'delete', 'all'] as const;

const EVENT_OF: Record<ChangeOperation, string> = {
	insert: 'create',
	update: 'edit',
	delete: 'delete',
};

export interface ChannelDoc {
	channel_id: string;
	/** canonical `Module_API_name.operation` entries */
	events: string[];
	notify_url: string;
	token?: string;
	/** epoch ms */
	channel_expiry: number;
	return_affected_field_values: boolean;
	notify_on_related_action: boolean;
	fields?: Json;
	/** API version used to subscribe (echoed in `resource_uri`) */
	v: string;
	created: number;
}

/** Live channels in subscription order; expired ones are removed (§9.3 "Expiry"). */
export function liveChannels(sandbox: Sandbox): ChannelDoc[] {
	const now = sandbox.now();
	const live: ChannelDoc[] = [];
	for (const channel of sandbox.store.docs<ChannelDoc>(CHANNELS)) {
		if (channel.channel_expiry <= now) sandbox.store.deleteDoc(CHANNELS, channel.channel_id);
		else live.push(channel);
	}
	return live;
}

export function liveChannel(sandbox: Sandbox, channelId: string): ChannelDoc | undefined {
	const channel = sandbox.store.doc<ChannelDoc>(CHANNELS, channelId);
	if (!channel) return undefined;
	if (channel.channel_expiry <= sandbox.now()) {
		sandbox.store.deleteDoc(CHANNELS, channelId);
		return undefined;
	}
	return channel;
}

/** Module API names a channel watches, in event order. */
export function channelModules(channel: Pick<ChannelDoc, 'events'>): string[] {
	return [...new Set(channel.events.map((e) => e.slice(0, e.lastIndexOf('.'))))];
}

/** Does the event list cover `module.operation` (directly or through `module.all`)? */
export function watches(events: string[], module: string, operation: string): boolean {
	return events.includes(`${module}.${operation}`) || events.includes(`${module}.all`);
}

export function resourceUri(sandbox: Sandbox, v: string, module: string): string {
	return `${sandbox.config.publicOrigin}/crm/${v}/${module}`;
}

interface DeliveryAttempt {
	at: string;
	/** HTTP status of the receiver's answer; absent on a connection error or timeout */
	status?: number;
	error?: string;
	duration_ms: number;
	/** the receiver answered, but the answer was lost (fault injection): the CRM treated it as a timeout */
	lost?: boolean;
	/** an extra copy of the delivery (fault injection), not a retry */
	copy?: boolean;
	/** `server_time` of the body sent */
	server_time?: number;
	/** the start of the receiver's answer body (diagnostics) */
	response?: string;
}

/** One delivery (one channel, module and operation of one originating request) and its outcome. */
export interface DeliveryEntry {
	delivery_id: number;
	channel_id: string;
	notify_url: string;
	module: string;
	operation: ChangeOperation;
	ids: string[];
	/** `dropped`: never sent (fault injection, faults.ts `dropDeliveryRate`) */
	outcome: 'pending' | 'delivered' | 'failed' | 'dropped';
	/** extra identical copies still to send after the first success (fault injection: `duplicateDeliveryRate`) */
	duplicates?: number;
	/** the first attempt was sent twice at once (fault injection: `concurrentDuplicateRate`) */
	concurrent_copy?: boolean;
	queued_at: string;
	attempts: DeliveryAttempt[];
	/** the body of the latest attempt */
	body: Json;
}

const LOG_LIMIT = 5000;

/** Strips sandbox-internal keys (`$…`) from affected values. */
function publicValues(values: Json): Json {
	return Object.fromEntries(Object.entries(values).filter(([key]) => !key.startsWith('$')));
}

export class Deliveries {
	readonly log: DeliveryEntry[] = [];
	private readonly sandbox: Sandbox;
	private counter = 0;

	constructor(sandbox: Sandbox) {
		this.sandbox = sandbox;
	}

	/** Fans a change event out to every live channel watching its module and operation. */
	handle(event: ChangeEvent): void {
		if (this.sandbox.isClosing || event.changes.length === 0) return;
		const operation = EVENT_OF[event.operation];
		for (const channel of liveChannels(this.sandbox)) {
			if (!watches(channel.events, event.module, operation)) continue;
			if (event.related && !channel.notify_on_related_action) continue;
			this.enqueue(channel, event);
		}
	}

	private enqueue(channel: ChannelDoc, event: ChangeEvent): void {
		const ids = event.changes.map((c) => c.id);
		const body: Json = { server_time: 0 };
		if (channel.return_affected_field_values && event.operation !== 'delete') {
			body.affected_values = event.changes.map((c) => ({
				record_id: c.id,
				values: publicValues(c.values),
			}));
		}
		let queryParams: Json = {};
		try {
			queryParams = Object.fromEntries(new URL(channel.notify_url).searchParams);
		} catch {
			queryParams = {};
		}
		Object.assign(body, {
			query_params: queryParams,
			module: event.module,
			resource_uri: resourceUri(this.sandbox, channel.v, event.module),
			ids,
			affected_fields:
				event.operation === 'update' ? event.changes.map((c) => ({ [c.id]: c.fields })) : [],
			operation: event.operation,
			channel_id: channel.channel_id,
		});
		if (channel.token) body.token = channel.token;
		const entry: DeliveryEntry = {
			delivery_id: ++this.counter,
			channel_id: channel.channel_id,
			notify_url: channel.notify_url,
			module: event.module,
			operation: event.operation,
			ids,
			outcome: 'pending',
			queued_at: this.sandbox.formatTime(),
			attempts: [],
			body,
		};
		this.log.push(entry);
		if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
		// fault injection: a delivery may be lost, or sent a second time with the very same body
		const fate = this.sandbox.faultPlan.deliveryFate();
		if (fate.copies === 0) {
			entry.outcome = 'dropped';
			return;
		}
		if (fate.copies > 1 && fate.concurrent) entry.concurrent_copy = true;
		else if (fate.copies > 1) entry.duplicates = fate.copies - 1;
		const delays = this.sandbox.config.deliveryRetryDelaysMs;
		this.sandbox.later(delays[0] ?? 0, () => this.attempt(entry, 0));
	}

	private async attempt(entry: DeliveryEntry, index: number, duplicate = false): Promise<void> {
		const { config, faultPlan } = this.sandbox;
		// §9.4: `server_time` is the send time, so a retry carries its own unless the plan keeps the first
		if (!duplicate && (index === 0 || !faultPlan.plan.retryKeepsServerTime))
			entry.body = { ...entry.body, server_time: this.sandbox.now() };
		if (!duplicate && index === 0 && entry.concurrent_copy) void this.send(entry, true);
		const record = await this.send(entry, duplicate);
		if (duplicate) return;
		if (
			record.status !== undefined &&
			record.status >= 200 &&
			record.status < 300 &&
			!record.lost
		) {
			entry.outcome = 'delivered';
			if (entry.duplicates) {
				entry.duplicates--;
				this.sandbox.later(0, () => this.attempt(entry, index, true));
			}
			return;
		}
		const next = index + 1;
		if (next < config.deliveryRetryDelaysMs.length && !this.sandbox.isClosing) {
			this.sandbox.later(config.deliveryRetryDelaysMs[next], () => this.attempt(entry, next));
		} else {
			entry.outcome = 'failed';
			// the copy a fault plan asked for follows a success only: none follows a failure
			delete entry.duplicates;
		}
	}

	/** One POST of the delivery's current body; the attempt is logged. */
	private async send(entry: DeliveryEntry, copy: boolean): Promise<DeliveryAttempt> {
		const { config, faultPlan } = this.sandbox;
		const started = Date.now();
		const body = entry.body;
		const record: DeliveryAttempt = {
			at: this.sandbox.formatTime(),
			duration_ms: 0,
			server_time: body.server_time as number,
		};
		if (copy) record.copy = true;
		try {
			const res = await fetch(entry.notify_url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(faultPlan.plan.deliveryTimeoutMs ?? config.deliveryTimeoutMs),
			});
			const answer = Buffer.from(await res.arrayBuffer()).toString('utf8');
			record.status = res.status;
			if (answer) record.response = answer.slice(0, 200);
			// the receiver did all its work; only the CRM never learns the answer
			if (!copy && faultPlan.loseResponse()) {
				record.lost = true;
				record.error = 'timeout';
			}
		} catch (error) {
			record.error =
				(error as Error).name === 'TimeoutError'
					? 'timeout'
					: String((error as Error).message ?? error);
		}
		record.duration_ms = Date.now() - started;
		entry.attempts.push(record);
		return record;
	}
}

const registry = new WeakMap<Sandbox, Deliveries>();

/** Starts deliveries for a sandbox: one listener on the store's change events feeds every channel. */
export function startDeliveries(sandbox: Sandbox): Deliveries {
	const existing = registry.get(sandbox);
	if (existing) return existing;
	const deliveries = new Deliveries(sandbox);
	registry.set(sandbox, deliveries);
	sandbox.store.onChange((event) => deliveries.handle(event));
	return deliveries;
}

/** The delivery log of a sandbox (test hook); undefined before the notifications group registered. */
export function deliveriesOf(sandbox: Sandbox): Deliveries | undefined {
	return registry.get(sandbox);
}
