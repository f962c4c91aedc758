// The one fault injector of the sandbox (test hooks under /__sandbox, reliability tests,
// benchmarks). Forced answers for the next N matching calls (§7 "a switch forcing 429"), and a
// random plan: a share of API calls answered 429/500/503 (before or after the call took effect),
// connections closed mid-response, delayed answers, and drop/duplicate rates that notification
// deliveries read. Deterministic with a seed. `decide` is the one place a request's fate is chosen.
import { prng } from './prng.ts';

/** A forced answer for the next matching requests (POST /__sandbox/faults). */
interface ForcedFault {
	status: number;
	code: string;
	remaining: number;
	/** only requests whose path contains this text */
	pathIncludes?: string;
	/** close the connection after the call took effect instead of answering `status` */
	drop?: boolean;
}

export interface FaultPlan {
	/** share (0..1) of API calls answered 429 TOO_MANY_REQUESTS before they take effect */
	rate429?: number;
	/** share answered 500 INTERNAL_ERROR / 503 */
	rate500?: number;
	rate503?: number;
	/** 5xx answers given after the call took effect (the client cannot know the outcome) */
	after?: boolean;
	/** share of calls whose connection is closed mid-response (after the call took effect) */
	dropConnectionRate?: number;
	/** extra latency on every API call (that `pathIncludes` selects), ms */
	delayMs?: number;
	/**
	 * Notification deliveries (deliveries.ts). `dropDeliveryRate`: share never sent at all, a loss the
	 * CRM causes (outcome `dropped`). `duplicateDeliveryRate`: share sent a second time, with the
	 * same body, after the first copy was acknowledged.
	 */
	dropDeliveryRate?: number;
	duplicateDeliveryRate?: number;
	/** share of deliveries whose first attempt is sent twice at the same moment (same body) */
	concurrentDuplicateRate?: number;
	/**
	 * share of delivery attempts whose answer is lost: the receiver gets the whole POST and answers,
	 * but the CRM sees a timeout and retries (§9.5), so nothing is lost end to end
	 */
	lostResponseRate?: number;
	/** overrides the delivery timeout (ms): slower answers count as no 2xx and are retried (§9.5) */
	deliveryTimeoutMs?: number;
	/** retries keep the first attempt's `server_time` (default: each attempt carries its own send time, §9.4) */
	retryKeepsServerTime?: boolean;
	/** only calls whose path contains this text */
	pathIncludes?: string;
	/** PRNG seed (default 1) */
	seed?: number;
}

export interface FaultStats {
	calls: number;
	injected429: number;
	injected500: number;
	injected503: number;
	droppedConnections: number;
	droppedDeliveries: number;
	duplicatedDeliveries: number;
	concurrentDuplicates: number;
	lostResponses: number;
}

/** The fate of one API call; `delayMs` comes first, whatever the kind. */
export type FaultDecision = (
	| { kind: 'none' }
	| { kind: 'status'; status: number; code: string; after: boolean }
	| { kind: 'drop' }
) & { delayMs?: number };

export class Faults {
	plan: FaultPlan = {};
	stats: FaultStats = Faults.emptyStats();
	/** forced answers, oldest first; independent of the plan */
	readonly forced: ForcedFault[] = [];
	private random: () => number = prng(1);

	static emptyStats(): FaultStats {
		return {
			calls: 0,
			injected429: 0,
			injected500: 0,
			injected503: 0,
			droppedConnections: 0,
			droppedDeliveries: 0,
			duplicatedDeliveries: 0,
			concurrentDuplicates: 0,
			lostResponses: 0,
		};
	}

	/** Replaces the random plan and its stats (forced answers stay). */
	set(plan: FaultPlan): void {
		this.plan = { ...plan };
		this.stats = Faults.emptyStats();
		this.random = prng(plan.seed ?? 1);
	}

	clear(): void {
		this.set({});
	}

	/** Forces the next `remaining` matching calls to answer `status`/`code`. */
	force(fault: ForcedFault): void {
		this.forced.push(fault);
	}

	/** Drops every forced answer; answers how many there were. */
	clearForced(): number {
		return this.forced.splice(0).length;
	}

	/**
	 * Decides the fate of one API call: the plan (when `pathIncludes` selects the call) first, then
	 * the oldest matching forced answer.
	 */
	decide(path: string): FaultDecision {
		const p = this.plan;
		const planned = !p.pathIncludes || path.includes(p.pathIncludes);
		const delayMs = planned ? (p.delayMs ?? 0) : 0;
		const random = planned ? this.roll() : ({ kind: 'none' } as const);
		if (random.kind !== 'none') return { ...random, delayMs };
		const forced = this.forced.find(
			(f) => f.remaining > 0 && (!f.pathIncludes || path.includes(f.pathIncludes)),
		);
		if (forced) {
			forced.remaining--;
			if (forced.remaining === 0) this.forced.splice(this.forced.indexOf(forced), 1);
			if (forced.drop) {
				this.stats.droppedConnections++;
				return { kind: 'drop', delayMs };
			}
			return { kind: 'status', status: forced.status, code: forced.code, after: false, delayMs };
		}
		return { kind: 'none', delayMs };
	}

	/** The plan's random draw for one call it selects. */
	private roll(): FaultDecision {
		const p = this.plan;
		this.stats.calls++;
		const r = this.random();
		let edge = p.rate429 ?? 0;
		if (r < edge) {
			this.stats.injected429++;
			return { kind: 'status', status: 429, code: 'TOO_MANY_REQUESTS', after: false };
		}
		edge += p.rate500 ?? 0;
		if (r < edge) {
			this.stats.injected500++;
			return { kind: 'status', status: 500, code: 'INTERNAL_ERROR', after: !!p.after };
		}
		edge += p.rate503 ?? 0;
		if (r < edge) {
			this.stats.injected503++;
			return { kind: 'status', status: 503, code: 'INTERNAL_ERROR', after: !!p.after };
		}
		edge += p.dropConnectionRate ?? 0;
		if (r < edge) {
			this.stats.droppedConnections++;
			return { kind: 'drop' };
		}
		return { kind: 'none' };
	}

	/**
	 * The fate of a new notification delivery: never sent (`copies` 0), sent once, or sent twice
	 * (`copies` 2: the second copy after the first was acknowledged, or both at once when `concurrent`).
	 */
	deliveryFate(): { copies: number; concurrent: boolean } {
		const r = this.random();
		let edge = this.plan.dropDeliveryRate ?? 0;
		if (r < edge) {
			this.stats.droppedDeliveries++;
			return { copies: 0, concurrent: false };
		}
		edge += this.plan.duplicateDeliveryRate ?? 0;
		if (r < edge) {
			this.stats.duplicatedDeliveries++;
			return { copies: 2, concurrent: false };
		}
		edge += this.plan.concurrentDuplicateRate ?? 0;
		if (r < edge) {
			this.stats.concurrentDuplicates++;
			return { copies: 2, concurrent: true };
		}
		return { copies: 1, concurrent: false };
	}

	/** How many times a notification delivery is sent: 0 (dropped), 1, or 2 (duplicated). */
	deliveryCopies(): number {
		return this.deliveryFate().copies;
	}

	/** Whether the answer to one delivery attempt is lost (the CRM then sees a timeout). */
	loseResponse(): boolean {
		const rate = this.plan.lostResponseRate ?? 0;
		if (rate <= 0 || this.random() >= rate) return false;
		this.stats.lostResponses++;
		return true;
	}
}
