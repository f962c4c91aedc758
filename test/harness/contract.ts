// The fixture of the sandbox contract tests (test/sandbox): a throw-away sandbox, a token granted
// through the real authorization-code grant (docs/protocol.md §2.1) for the file's scope, and an
// authenticated `call` to the API over HTTP.
import { api, grantToken, startTestSandbox } from './sandbox';
import type { ApiInit, ApiResponse, RunningSandbox, SandboxOptions } from './sandbox';

export interface ContractOptions {
	/** comma-separated scope list of the fixture's token (§2.3) */
	scope: string;
	/** options of the sandbox (in-memory store with demo data unless told otherwise) */
	sandbox?: SandboxOptions;
}

/** A running sandbox (url, sandbox, close…) plus the fixture's token and API helpers. */
export interface ContractFixture extends RunningSandbox {
	/** access token for the fixture's scope */
	readonly token: string;
	/** `await call('GET', '/crm/v2.1/Leads', { query })` with the fixture's token, or `bearer` */
	call<T = any>(
		method: string,
		path: string,
		init?: Omit<ApiInit, 'method'>,
		bearer?: string,
	): Promise<ApiResponse<T>>;
	/** another access token of this sandbox, for `scope` */
	grant(scope: string): Promise<string>;
}

/** Starts a sandbox and grants the token. */
export async function contractFixture(options: ContractOptions): Promise<ContractFixture> {
	const running = await startTestSandbox(options.sandbox);
	const token = (await grantToken(running.url, { scope: options.scope })).access_token;
	return fixtureOf(() => ({ running, token }));
}

function fixtureOf(state: () => { running: RunningSandbox; token: string }): ContractFixture {
	const fixture: ContractFixture = {
		get url() {
			return state().running.url;
		},
		get port() {
			return state().running.port;
		},
		get uploadUrl() {
			return state().running.uploadUrl;
		},
		get sandbox() {
			return state().running.sandbox;
		},
		get server() {
			return state().running.server;
		},
		get token() {
			return state().token;
		},
		async close() {
			await state().running.close();
		},
		async call(method, path, init = {}, bearer) {
			return await api(`${fixture.url}${path}`, bearer ?? fixture.token, { ...init, method });
		},
		async grant(scope) {
			return (await grantToken(fixture.url, { scope })).access_token;
		},
	};
	return fixture;
}

/**
 * The fixture for one test file: started in beforeAll, closed in afterAll. Its members are usable
 * from the first beforeAll on (hooks declared after this call run after it).
 */
export function useContractFixture(options: ContractOptions): ContractFixture {
	let started: { running: RunningSandbox; token: string } | undefined;
	beforeAll(async () => {
		const running = await startTestSandbox(options.sandbox);
		started = {
			running,
			token: (await grantToken(running.url, { scope: options.scope })).access_token,
		};
	});
	afterAll(async () => {
		await started?.running.close();
	});
	return fixtureOf(() => {
		if (!started)
			throw new Error(
				'useContractFixture: the sandbox is not started yet (use it inside a hook or a test)',
			);
		return started;
	});
}

/** Runs `fn` with changed sandbox settings (knobs, job step interval), restoring them afterwards. */
export async function withSandboxConfig(
	running: RunningSandbox,
	change: { jobStepMs?: number; knobs?: Record<string, unknown> },
	fn: () => Promise<void>,
): Promise<void> {
	const config = running.sandbox.config;
	const saved = { jobStepMs: config.jobStepMs, knobs: { ...config.knobs } };
	if (change.jobStepMs !== undefined) config.jobStepMs = change.jobStepMs;
	Object.assign(config.knobs, change.knobs ?? {});
	try {
		await fn();
	} finally {
		config.jobStepMs = saved.jobStepMs;
		config.knobs = saved.knobs;
	}
}
