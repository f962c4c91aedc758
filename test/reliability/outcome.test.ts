// What the transport may send again (docs/protocol.md §7 + "outcome unknown"): 429 always; 5xx and a lost
// connection only for idempotent calls; a POST whose outcome is unknown is never repeated as is.
import {
	RETRY,
	isConnectionLost,
	isOutcomeUnknown,
	isRetryable,
	retryWait,
} from '../../nodes/shared/transport';
import type { RetryPolicy } from '../../nodes/shared/transport';

const failure = (httpCode: string) => Object.assign(new Error(`HTTP ${httpCode}`), { httpCode });

describe('transport › retry and outcome rules', () => {
	/** the package's policy with 1 ms back-off instead of 1 s */
	const fast: RetryPolicy = { ...RETRY, baseMs: 1 };

	test.each([
		[429, 'POST', undefined, true],
		[429, 'GET', undefined, true],
		[500, 'GET', undefined, true],
		[503, 'PUT', undefined, true],
		[503, 'DELETE', undefined, true],
		[500, 'POST', undefined, false],
		[503, 'PATCH', undefined, false],
		[500, 'POST', true, true], // an upsert on a unique field
		[400, 'GET', undefined, false],
		[401, 'GET', undefined, false],
		[undefined, 'GET', undefined, false],
	] as const)('isRetryable(%s, %s, idempotent=%s) → %s', (status, method, idempotent, expected) => {
		expect(isRetryable(status, method, idempotent)).toBe(expected);
	});

	test('outcome unknown: a 5xx or a connection lost after sending; not a 4xx, 429 or a refused connection', () => {
		expect(isOutcomeUnknown(failure('500'))).toBe(true);
		expect(isOutcomeUnknown(failure('503'))).toBe(true);
		expect(isOutcomeUnknown(failure('ECONNRESET'))).toBe(true);
		expect(
			isOutcomeUnknown(
				Object.assign(new Error('socket hang up'), { cause: { code: 'ECONNRESET' } }),
			),
		).toBe(true);
		expect(isOutcomeUnknown(failure('ETIMEDOUT'))).toBe(true);
		expect(isOutcomeUnknown(failure('429'))).toBe(false);
		expect(isOutcomeUnknown(failure('400'))).toBe(false);
		expect(isOutcomeUnknown(failure('ECONNREFUSED'))).toBe(false);
		expect(isConnectionLost(failure('EPIPE'))).toBe(true);
		expect(isConnectionLost(new Error('plain'))).toBe(false);
	});

	test('retryWait: a lost connection is retried for an idempotent call, never for a POST', () => {
		const lost = failure('ECONNRESET');
		expect(retryWait(lost, 0, 'GET', undefined, fast)).toEqual(expect.any(Number));
		expect(retryWait(lost, 0, 'POST', undefined, fast)).toBeUndefined();
		// an upsert on a unique field is idempotent although a POST
		expect(retryWait(lost, 0, 'POST', true, fast)).toEqual(expect.any(Number));
		// a 4xx other than 429 is never sent again
		expect(retryWait(failure('400'), 0, 'GET')).toBeUndefined();
		// n8n's sandboxed pattern check overrun on a starved CPU: a read is tried again, a write is not
		const starved = new Error('Regular expression execution timed out');
		expect(retryWait(starved, 0, 'GET', undefined, fast)).toEqual(expect.any(Number));
		expect(retryWait(starved, 0, 'POST', undefined, fast)).toBeUndefined();
	});

	test("retryWait: back-off 1, 2, 4, 8 s (±20 %), and no wait after the policy's last try", () => {
		const busy = failure('429');
		for (let attempt = 0; attempt < RETRY.tries - 1; attempt++) {
			const wait = retryWait(busy, attempt, 'POST')!;
			expect(wait).toBeGreaterThanOrEqual(0.8 * 1000 * 2 ** attempt);
			expect(wait).toBeLessThanOrEqual(1.2 * 1000 * 2 ** attempt);
		}
		expect(retryWait(busy, RETRY.tries - 1, 'POST')).toBeUndefined();
		expect(retryWait(failure('503'), RETRY.tries - 1, 'PUT')).toBeUndefined();
		expect(RETRY).toEqual({ tries: 5, baseMs: 1000, capMs: 16_000 });
	});
});
