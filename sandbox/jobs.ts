// Shared machinery of the asynchronous bulk jobs (docs/protocol.md §8, §10): job documents that
// advance one step per `jobStepMs` (or on demand through a test hook), and callbacks POSTed at
// terminal states with the §9.5 retry policy (`deliveryRetryDelaysMs`, `deliveryTimeoutMs`).
import { HttpError } from './errors.ts';
import { isDeliveryTarget } from './outbound.ts';
import type { Sandbox } from './types.ts';
import type { Json } from './store.ts';

/** Bookkeeping every job document carries (never rendered on the wire). */
export interface JobBase {
	id: string;
	/** bumped on every save: a scheduled step only runs if the job has not moved since */
	$step: number;
	/** test hook: the next step takes the failure branch */
	$fail?: boolean;
}

export interface Callback {
	url: string;
	method: 'post';
}

/** Validates `callback` of a create request (§10); undefined when absent. */
export function parseCallback(value: unknown): Callback | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw new HttpError(
			'INVALID_CALLBACK_URL',
			{ api_name: 'callback' },
			'the callback url is invalid',
		);
	}
	const { url, method } = value as Json;
	let parsed: URL | undefined;
	try {
		parsed = typeof url === 'string' ? new URL(url) : undefined;
	} catch {
		parsed = undefined;
	}
	// absolute http(s), and never the sandbox itself (its test hooks are not a receiver)
	if (!parsed || !isDeliveryTarget(parsed.toString())) {
		throw new HttpError('INVALID_CALLBACK_URL', { api_name: 'url' }, 'the callback url is invalid');
	}
	if (typeof method !== 'string' || method.toLowerCase() !== 'post') {
		throw new HttpError(
			'INVALID_CALLBACK_METHOD',
			{ api_name: 'method' },
			'the callback method is invalid, only post is supported',
		);
	}
	return { url: parsed.toString(), method: 'post' };
}

/** Saves a job document, marking it as moved (pending scheduled steps of the old state lapse). */
export function saveJob<T extends JobBase>(sandbox: Sandbox, collection: string, job: T): T {
	job.$step = (job.$step ?? 0) + 1;
	sandbox.store.putDoc(collection, job.id, job);
	return job;
}

/**
 * Runs `step` for the job after `delayMs` (default: one job step), unless the job moved in the
 * meantime (an on-demand advance) or the sandbox closed. Steps are synchronous, so two never overlap.
 */
export function scheduleStep<T extends JobBase>(
	sandbox: Sandbox,
	collection: string,
	jobId: string,
	step: (job: T) => void,
	delayMs: number = sandbox.config.jobStepMs,
): void {
	const expected = sandbox.store.doc<T>(collection, jobId)?.$step;
	sandbox.later(delayMs, () => {
		const job = sandbox.store.doc<T>(collection, jobId);
		if (!job || job.$step !== expected) return;
		step(job);
	});
}

/**
 * The first move of every bulk job (§10): ADDED → IN PROGRESS (in the job's state field `key`),
 * saved, its next step scheduled. True when the job was already IN PROGRESS: this step works on it.
 */
export function inProgress<T extends JobBase>(
	sandbox: Sandbox,
	collection: string,
	job: T,
	key: keyof T & string,
	step: (job: T) => void,
): boolean {
	if (job[key] === 'ADDED') {
		(job as Record<string, unknown>)[key] = 'IN PROGRESS';
		saveJob(sandbox, collection, job);
		scheduleStep(sandbox, collection, job.id, step);
		return false;
	}
	return job[key] === 'IN PROGRESS';
}

/** One recorded callback delivery (docs `bulk_callbacks`, for tests and the README walkthrough). */
export interface CallbackLog {
	id: string;
	job_id: string;
	url: string;
	body: Json;
	attempts: Array<{ at: number; status?: number; error?: string }>;
	outcome: 'pending' | 'delivered' | 'CALLBACK_FAILURE';
}

/**
 * POSTs `body` to the job's callback at a terminal state: up to `deliveryRetryDelaysMs.length`
 * attempts on connection errors, timeouts or non-2xx answers. After the last failed attempt the
 * failure is logged as CALLBACK_FAILURE (never returned by an endpoint); the job is unaffected.
 */
export function deliverCallback(
	sandbox: Sandbox,
	jobId: string,
	callback: Callback,
	body: Json,
): void {
	const delays = sandbox.config.deliveryRetryDelaysMs.length
		? sandbox.config.deliveryRetryDelaysMs
		: [0];
	const logId = `${jobId}:${sandbox.now()}`;
	const log: CallbackLog = {
		id: logId,
		job_id: jobId,
		url: callback.url,
		body,
		attempts: [],
		outcome: 'pending',
	};
	sandbox.store.putDoc('bulk_callbacks', logId, log);
	const attempt = (n: number) => {
		sandbox.later(delays[n], async () => {
			let status: number | undefined;
			let error: string | undefined;
			try {
				const res = await fetch(callback.url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify(body),
					signal: AbortSignal.timeout(sandbox.config.deliveryTimeoutMs),
				});
				status = res.status;
				await res.arrayBuffer().catch(() => undefined);
			} catch (e) {
				error = (e as Error).message;
			}
			if (sandbox.isClosing) return;
			const ok = status !== undefined && status >= 200 && status < 300;
			log.attempts.push({ at: sandbox.now(), status, error });
			const last = n + 1 >= delays.length;
			log.outcome = ok ? 'delivered' : last ? 'CALLBACK_FAILURE' : 'pending';
			sandbox.store.putDoc('bulk_callbacks', logId, log);
			if (ok) return;
			if (last) {
				console.warn(
					`[sandbox] CALLBACK_FAILURE job ${jobId}: callback failed after ${delays.length} attempts (${callback.url})`,
				);
				return;
			}
			attempt(n + 1);
		});
	};
	attempt(0);
}
