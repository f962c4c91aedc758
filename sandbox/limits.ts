// API concurrency and credit limits of docs/protocol.md §7, on by default as on the service
// (`config.apiLimits`; off only for benchmarks):
// in-flight calls per client application (`client_id`), a sub-limit for the resource-intensive
// operations, and credits per rolling 24-hour window for the organisation with the cost table.
// Over any of them: 429 TOO_MANY_REQUESTS without Retry-After.
import { HttpError } from './errors.ts';

export type Edition = 'Free' | 'Standard' | 'Professional' | 'Enterprise' | 'Ultimate';

/** Concurrency limit per edition (§7). */
export const CONCURRENCY_BY_EDITION: Record<Edition, number> = {
	Free: 5,
	Standard: 10,
	Professional: 15,
	Enterprise: 20,
	Ultimate: 25,
};

export interface ApiLimitsConfig {
	/** on by default, as on the service; off only for benchmarks that measure the sandbox itself */
	enabled: boolean;
	/** decides the concurrency limit (default `Enterprise`, §7) */
	edition: Edition;
	/** overrides the edition's concurrency limit */
	concurrency?: number;
	/** resource-intensive calls in flight per client (§7: 10 for every edition) */
	subConcurrency: number;
	/** credits per rolling 24-hour window; undefined = unlimited (§7 default) */
	credits?: number;
}

export const DEFAULT_API_LIMITS: ApiLimitsConfig = {
	enabled: true,
	edition: 'Enterprise',
	subConcurrency: 10,
};

const WINDOW_MS = 24 * 60 * 60 * 1000;

/** What the limits need to know about one call (root and method as the router names them). */
export interface CallShape {
	root: string;
	method: string;
	/** the route pattern, e.g. `/:module/search` */
	pattern: string;
	query: URLSearchParams;
}

const RECORD_WRITES = new Set([
	'POST /:module',
	'PUT /:module',
	'PUT /:module/:id',
	'POST /:module/upsert',
]);

/** Heavy operations recognisable from the route alone (§7 sub-concurrency list). */
export function isHeavyRoute(call: CallShape): boolean {
	if (call.root === 'bulk' || call.root === 'download') return true;
	const key = `${call.method} ${call.pattern}`;
	if (key === 'GET /:module') return call.query.has('cvid') || call.query.has('sort_by');
	return [
		'GET /:module/search',
		'POST /coql',
		'POST /upload',
		'POST /Leads/:id/actions/convert',
		'POST /:module/actions/mass_update',
		'POST /:module/:id/actions/send_mail',
	].includes(key);
}

/** Record create / update / upsert: heavy above 10 records (§7). */
export function isRecordWrite(call: CallShape): boolean {
	return call.root === 'crm' && RECORD_WRITES.has(`${call.method} ${call.pattern}`);
}

/** Credit cost of a call (§7 cost table); `records` = items of a record write. */
export function creditCost(call: CallShape, records: number): number {
	const key = `${call.method} ${call.pattern}`;
	if (call.root === 'bulk' && key === 'POST /write') return 500;
	if (key === 'POST /Leads/:id/actions/convert') return 5;
	if (isRecordWrite(call)) return Math.max(1, Math.ceil(records / 10));
	return 1;
}

function tooMany(): HttpError {
	return new HttpError('TOO_MANY_REQUESTS');
}

/** What the limits read of the sandbox (kept narrow: the sandbox's types import this module). */
interface LimitsHost {
	readonly config: { apiLimits: ApiLimitsConfig };
	now(): number;
}

export class ApiLimits {
	private readonly sandbox: LimitsHost;
	private readonly inFlight = new Map<string, number>();
	private readonly heavyInFlight = new Map<string, number>();
	/** credits spent, oldest first */
	private spent: Array<{ at: number; cost: number }> = [];

	constructor(sandbox: LimitsHost) {
		this.sandbox = sandbox;
	}

	get config(): ApiLimitsConfig {
		return this.sandbox.config.apiLimits;
	}

	concurrencyLimit(): number {
		return (
			this.config.concurrency ??
			CONCURRENCY_BY_EDITION[this.config.edition] ??
			CONCURRENCY_BY_EDITION.Enterprise
		);
	}

	/**
	 * Counts one call in flight for the client (heavy: also against the sub-limit; `counted` false:
	 * only against the sub-limit, for a call already counted); 429 over a limit. Answers the
	 * function that ends the call; a no-op when the limits are off.
	 */
	enter(clientId: string, heavy: boolean, counted = true): () => void {
		if (!this.config.enabled) return () => {};
		const counters: Array<[Map<string, number>, number]> = [];
		if (counted) counters.push([this.inFlight, this.concurrencyLimit()]);
		if (heavy) counters.push([this.heavyInFlight, this.config.subConcurrency]);
		for (const [map, limit] of counters) {
			if ((map.get(clientId) ?? 0) >= limit) throw tooMany();
		}
		for (const [map] of counters) map.set(clientId, (map.get(clientId) ?? 0) + 1);
		let done = false;
		return () => {
			if (done) return;
			done = true;
			for (const [map] of counters) {
				const left = (map.get(clientId) ?? 1) - 1;
				if (left > 0) map.set(clientId, left);
				else map.delete(clientId);
			}
		};
	}

	/** Credits used in the current rolling window. */
	used(): number {
		const since = this.sandbox.now() - WINDOW_MS;
		this.spent = this.spent.filter((s) => s.at > since);
		return this.spent.reduce((sum, s) => sum + s.cost, 0);
	}

	/**
	 * Spends `cost` credits; 429 when the window's allowance cannot cover it. Answers the value of
	 * `X-API-CREDITS-REMAINING` once half the allowance is used (§7), else undefined.
	 */
	charge(cost: number): { remaining?: number; error?: HttpError } {
		const allowance = this.config.credits;
		if (!this.config.enabled || allowance === undefined) return {};
		const used = this.used();
		if (used + cost > allowance)
			return { remaining: Math.max(allowance - used, 0), error: tooMany() };
		this.spent.push({ at: this.sandbox.now(), cost });
		const after = used + cost;
		return after * 2 >= allowance ? { remaining: allowance - after } : {};
	}

	/** State for the test hook GET /__sandbox/limits. */
	snapshot(): Record<string, unknown> {
		return {
			...this.config,
			concurrency_limit: this.concurrencyLimit(),
			in_flight: Object.fromEntries(this.inFlight),
			heavy_in_flight: Object.fromEntries(this.heavyInFlight),
			credits_used: this.used(),
		};
	}
}
