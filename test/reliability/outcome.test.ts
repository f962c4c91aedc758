 
// What the transport may send again (docs/protocol.md §7 + "outcome unknown"): 429 always; 5xx and a lost
// connection only for idempotent calls; a POST whose outcome is unknown is never repeated as is.
import { RETRY, isConnectionLost, isOutcomeUnknown, isRetryable, withRetry } from '../../nodes/shared/transport';
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
		expect(isOutcomeUnknown(Object.assign(new Error('socket hang up'), { cause: { code: 'ECONNRESET' } }))).toBe(true);
		expect(isOutcomeUnknown(failure('ETIMEDOUT'))).toBe(true);
		expect(isOutcomeUnknown(failure('429'))).toBe(false);
		expect(isOutcomeUnknown(failure('400'))).toBe(false);
		expect(isOutcomeUnknown(failure('ECONNREFUSED'))).toBe(false);
		expect(isConnectionLost(failure('EPIPE'))).toBe(true);
		expect(isConnectionLost(new Error('plain'))).toBe(false);
	});

	test('withRetry: a lost connection is retried for an idempotent call, never for a POST', async () => {
		let calls = 0;
		const flaky = async () => {
			if (++calls < 3) throw failure('ECONNRESET');
			return 'ok';
		};
		await expect(withRetry('GET', flaky, undefined, fast)).resolves.toBe('ok');
		expect(calls).toBe(3);

		calls = 0;
		await expect(withRetry('POST', flaky, undefined, fast)).rejects.toThrow('ECONNRESET');
		expect(calls).toBe(1);

		calls = 0;
		await expect(withRetry('POST', flaky, true, fast)).resolves.toBe('ok');
		expect(calls).toBe(3);
	});

	test('withRetry: gives up after the policy tries and throws the last error', async () => {
		let calls = 0;
		await expect(
			withRetry(
				'PUT',
				async () => {
					calls++;
					throw failure('503');
				},
				undefined,
				fast,
			),
		).rejects.toThrow('HTTP 503');
		expect(calls).toBe(5);
		// the package's own policy was left as it is
		expect(RETRY).toEqual({ tries: 5, baseMs: 1000, capMs: 16_000 });
	});
});
