// Waits on observable events instead of fixed sleeps: poll a probe until it holds, with a deadline.
// The sandbox's delivery log (GET /__sandbox/deliveries, docs/protocol.md §9.5) tells when a delivery
// reached its final attempt, which is what a test asserting "nothing more happened" waits for.

export interface WaitOptions {
	/** give up after this many ms (default 5000) */
	timeout?: number;
	/** poll period in ms (default 10) */
	interval?: number;
	/** what is awaited, for the timeout error */
	what?: string;
}

/**
 * Polls `probe` until `ok(value)` (default: truthy) and returns that value; throws with the last
 * value after `timeout` ms.
 */
export async function waitFor<T>(
	probe: () => T | Promise<T>,
	options: WaitOptions & { ok?: (value: T) => boolean } = {},
): Promise<T> {
	const { timeout = 5000, interval = 10, ok = (v: T) => Boolean(v) } = options;
	const deadline = Date.now() + timeout;
	for (;;) {
		const value = await probe();
		if (ok(value)) return value;
		if (Date.now() > deadline) {
			let shown: string;
			try {
				shown = JSON.stringify(value)?.slice(0, 500) ?? String(value);
			} catch {
				shown = String(value);
			}
			throw new Error(
				`waitFor${options.what ? ` (${options.what})` : ''}: not met after ${timeout} ms; last value ${shown}`,
			);
		}
		await new Promise((r) => setTimeout(r, interval));
	}
}

/** One delivery of the sandbox's log (sandbox/deliveries.ts `DeliveryEntry`, as GET /__sandbox/deliveries answers it). */
export interface SandboxDelivery {
	delivery_id: number;
	channel_id: string;
	notify_url: string;
	module: string;
	operation: string;
	ids: string[];
	outcome: 'pending' | 'delivered' | 'failed' | 'dropped';
	duplicates?: number;
	attempts: Array<{
		at: string;
		status?: number;
		error?: string;
		copy?: boolean;
		lost?: boolean;
		server_time?: number;
		duration_ms?: number;
	}>;
	body: any;
}

/** The sandbox's delivery log over HTTP, oldest first; `channelId` narrows it to one channel. */
export async function sandboxDeliveries(
	url: string,
	channelId?: string,
): Promise<SandboxDelivery[]> {
	const target = new URL('/__sandbox/deliveries', url);
	if (channelId) target.searchParams.set('channel_id', channelId);
	const res = await fetch(target);
	if (res.status !== 200) throw new Error(`GET /__sandbox/deliveries: HTTP ${res.status}`);
	return ((await res.json()) as { deliveries: SandboxDelivery[] }).deliveries;
}

/** A delivery is final when it will make no more attempts: not pending, no copies left to send. */
export const isFinal = (d: SandboxDelivery) => d.outcome !== 'pending' && !d.duplicates;

/**
 * Waits until the sandbox logged `count` deliveries (for `channelId`, when given) and every one of
 * them is final; returns them. After this, the CRM sends nothing more for those changes.
 */
export async function deliveriesSettled(
	url: string,
	count: number,
	options: WaitOptions & { channelId?: string } = {},
): Promise<SandboxDelivery[]> {
	return await waitFor(async () => await sandboxDeliveries(url, options.channelId), {
		what: `${count} final deliveries${options.channelId ? ` on channel ${options.channelId}` : ''}`,
		...options,
		ok: (log) => log.length === count && log.every(isFinal),
	});
}
