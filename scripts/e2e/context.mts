// What the steps under scripts/e2e/ get from scripts/e2e.mts: structural types only, so that they
// depend on no module-private class of it (the steps that drive the full playwright page take
// editor.mts's EditorStepContext).
import { createRequire } from 'node:module';
import path from 'node:path';

import { RUNTIME_DIR } from '../n8n-runtime.mts';

export interface E2eLocator {
	click(o?: { timeout?: number }): Promise<void>;
	dblclick(o?: { timeout?: number }): Promise<void>;
	fill(v: string): Promise<void>;
	first(): E2eLocator;
	count(): Promise<number>;
	filter(o: { has?: E2eLocator; hasText?: string | RegExp }): E2eLocator;
	locator(s: string, o?: { hasText?: string | RegExp }): E2eLocator;
	getByText(t: string | RegExp, o?: { exact?: boolean }): E2eLocator;
	waitFor(o?: {
		state?: 'visible' | 'hidden' | 'attached' | 'detached';
		timeout?: number;
	}): Promise<void>;
	innerText(): Promise<string>;
	allInnerTexts(): Promise<string[]>;
	isVisible(): Promise<boolean>;
	inputValue(): Promise<string>;
	selectOption(value: string): Promise<unknown>;
}
export interface E2ePage {
	goto(url: string): Promise<unknown>;
	waitForTimeout(ms: number): Promise<void>;
	locator(s: string, o?: { hasText?: string | RegExp }): E2eLocator;
	getByText(t: string | RegExp, o?: { exact?: boolean }): E2eLocator;
	keyboard: { press(k: string): Promise<void> };
}

export interface StepContext {
	page: E2ePage;
	stack: {
		editorUrl: string;
		sandboxUrl: string;
		credentialId: string;
		nodes: Array<{ name: string; type: string }>;
		/** the workflows of examples/ as imported (`file`: the file name) */
		workflows: Array<{ id: string; name: string; file: string }>;
	};
	/** n8n's REST API, signed in as the owner */
	api: {
		request<T = unknown>(
			method: string,
			url: string,
			body?: unknown,
		): Promise<{ status: number; data: T }>;
	};
	/** the sandbox, with a token of its own (test hooks under /__sandbox) */
	sandbox: {
		call<T = Record<string, unknown>>(
			method: string,
			p: string,
			body?: unknown,
		): Promise<{ status: number; body: T }>;
	};
	step(name: string, fn: () => Promise<void>, skipWhy?: string): Promise<void>;
	shot(file: string): Promise<void>;
	log(msg: string): void;
	/** opens an options parameter of the open node panel and picks the option shown as `text` */
	choose(parameter: string, text: string): Promise<void>;
}

export function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request the sandbox logged (GET /__sandbox/requests). */
export interface LoggedRequest {
	method: string;
	url: string;
	status: number;
}

export async function sandboxRequests(ctx: StepContext): Promise<LoggedRequest[]> {
	return (await ctx.sandbox.call<{ requests: LoggedRequest[] }>('GET', '/__sandbox/requests')).body
		.requests;
}

export interface RunResult {
	executionId: string;
	status: string;
	/** node name → items (json) of its first run's first main output */
	output: Record<string, Array<Record<string, unknown>>>;
	/** node name → the binary data (file name, type, id) of those items */
	binary: Record<
		string,
		Array<Record<string, { fileName?: string; mimeType?: string; id?: string }>>
	>;
	error?: string;
}

/**
 * Creates a workflow through n8n's REST API, runs it from its manual trigger as the editor's
 * "Execute workflow" button does (POST /rest/workflows/:id/run), and waits for the saved execution.
 */
export async function createAndRun(
	ctx: StepContext,
	workflow: {
		name: string;
		nodes: Array<Record<string, unknown>>;
		connections: Record<string, unknown>;
	},
	trigger: string,
): Promise<{ workflowId: string } & RunResult> {
	const created = await ctx.api.request<{ id?: string }>('POST', '/rest/workflows', {
		...workflow,
		settings: { executionOrder: 'v1' },
	});
	assert(
		created.status === 200 && created.data.id,
		`n8n refused the workflow "${workflow.name}": ${created.status} ${JSON.stringify(created.data).slice(0, 400)}`,
	);
	const workflowId = created.data.id;
	const started = await ctx.api.request<{ executionId?: string }>(
		'POST',
		`/rest/workflows/${workflowId}/run`,
		{ triggerToStartFrom: { name: trigger } },
	);
	assert(
		started.status === 200 && started.data.executionId,
		`n8n did not run "${workflow.name}": ${started.status} ${JSON.stringify(started.data).slice(0, 400)}`,
	);
	return { workflowId, ...(await executionResult(ctx, started.data.executionId, workflow.name)) };
}

/** Waits for a saved execution to end (up to 90 s) and reads its data. */
export async function executionResult(
	ctx: StepContext,
	executionId: string,
	label: string,
): Promise<RunResult> {
	const deadline = Date.now() + 90_000;
	for (;;) {
		const res = await ctx.api.request<{ status?: string; finished?: boolean; data?: string }>(
			'GET',
			`/rest/executions/${executionId}`,
		);
		const status = res.data?.status ?? '';
		if (res.status === 200 && !['new', 'running', 'waiting', ''].includes(status)) {
			return { executionId, status, ...readRun(String(res.data.data ?? '')) };
		}
		assert(
			Date.now() < deadline,
			`execution ${executionId} of "${label}" still ${status || res.status} after 90 s`,
		);
		await sleep(500);
	}
}

interface RunData {
	resultData?: {
		error?: { message?: string; description?: string };
		runData?: Record<
			string,
			Array<{
				data?: {
					main?: Array<Array<{
						json: Record<string, unknown>;
						binary?: RunResult['binary'][string][number];
					}> | null>;
				};
				error?: { message?: string };
			}>
		>;
	};
}

/** The execution data n8n stores is `flatted`-encoded; n8n ships the library. */
export function readRun(serialized: string): Pick<RunResult, 'output' | 'binary' | 'error'> {
	const flatted = createRequire(path.join(RUNTIME_DIR, 'node_modules', 'n8n', 'package.json'))(
		'flatted',
	) as { parse(s: string): unknown };
	const data = (serialized ? flatted.parse(serialized) : {}) as RunData;
	const output: RunResult['output'] = {};
	const binary: RunResult['binary'] = {};
	const errors: string[] = [];
	for (const [node, runs] of Object.entries(data.resultData?.runData ?? {})) {
		output[node] = (runs[0]?.data?.main?.[0] ?? []).map((i) => i.json);
		binary[node] = (runs[0]?.data?.main?.[0] ?? []).map((i) => i.binary ?? {});
		for (const r of runs) if (r.error?.message) errors.push(`${node}: ${r.error.message}`);
	}
	const top = data.resultData?.error;
	if (top?.message)
		errors.unshift(`${top.message}${top.description ? ` (${top.description})` : ''}`);
	return { output, binary, error: errors.length ? errors.join('; ') : undefined };
}
