 
// Fault injection for reliability tests and benchmarks: a share of API calls answered 429/500/503
// (before or after the call took effect), connections closed mid-response, delayed answers, and
// drop/duplicate rates that notification deliveries read. Deterministic with a seed.

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
	/** extra latency on every API call, ms */
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

export type FaultDecision =
	| { kind: 'none' }
	| { kind: 'status'; status: number; code: string; after: boolean }
	| { kind: 'drop' };

/** mulberry32: small deterministic PRNG */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export class Faults {
	plan: FaultPlan = {};
	stats: FaultStats = Faults.emptyStats();
	private random: () => number = prng(1);

	static emptyStats(): FaultStats {
		return { calls: 0, injected429: 0, injected500: 0, injected503: 0, droppedConnections: 0, droppedDeliveries: 0, duplicatedDeliveries: 0, concurrentDuplicates: 0, lostResponses: 0 };
	}

	set(plan: FaultPlan): void {
		this.plan = { ...plan };
		this.stats = Faults.emptyStats();
		this.random = prng(plan.seed ?? 1);
	}

	clear(): void {
		this.set({});
	}

	/** Decides the fate of one API call. */
	decide(path: string): FaultDecision {
		const p = this.plan;
		if (p.pathIncludes && !path.includes(p.pathIncludes)) return { kind: 'none' };
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
