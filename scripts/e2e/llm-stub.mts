// A scripted OpenAI-compatible chat model for the AI Agent step of `npm run test:e2e`.
//
// POST /v1/chat/completions: while the conversation holds no tool result, it answers with one call
// of the tool `script.tool(tools)` picks, with `script.args(messages)`; once a `role: "tool"` message
// is there, it answers `script.answer(toolResult)` as the final message. GET /v1/models lists one
// model. Plain JSON, or server-sent events when the request asks for `stream: true`. Every request
// body is kept in `requests`, so the test sees the tool names and descriptions n8n sent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}
export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}
export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
}

export interface StubScript {
	/** the tool to call, from the tools the request offers */
	tool(tools: ChatTool[]): ChatTool | undefined;
	/** arguments of that call */
	args(messages: ChatMessage[]): Record<string, unknown>;
	/** the final answer, from what the tool returned (the content of the `tool` message) */
	answer(toolResult: string): string;
}

export interface LlmStub {
	/** OpenAI-style base URL, ending in /v1 */
	baseUrl: string;
	requests: ChatRequest[];
	/** tool calls the stub made: name and arguments */
	calls: Array<{ name: string; args: Record<string, unknown> }>;
	close(): Promise<void>;
}

export const STUB_MODEL = 'crm-e2e-stub';

const text = (content: unknown): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content
					.map((p) => (typeof p === 'string' ? p : String((p as { text?: unknown }).text ?? '')))
					.join('')
			: JSON.stringify(content ?? '');

export async function startLlmStub(script: StubScript): Promise<LlmStub> {
	const requests: ChatRequest[] = [];
	const calls: LlmStub['calls'] = [];
	let seq = 0;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const send = (status: number, body: unknown) => {
				res.writeHead(status, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify(body));
			};
			const url = new URL(req.url ?? '/', 'http://stub');
			if (req.method === 'GET' && url.pathname === '/v1/models') {
				send(200, {
					object: 'list',
					data: [{ id: STUB_MODEL, object: 'model', created: 0, owned_by: 'e2e' }],
				});
				return;
			}
			if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
				send(404, {
					error: {
						message: `the stub serves no ${req.method} ${url.pathname}`,
						type: 'invalid_request_error',
					},
				});
				return;
			}
			let body: ChatRequest;
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
			} catch {
				send(400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
				return;
			}
			requests.push(body);
			const id = `chatcmpl-${++seq}`;
			const toolMessage = [...(body.messages ?? [])].reverse().find((m) => m.role === 'tool');
			let message: {
				role: 'assistant';
				content: string | null;
				tool_calls?: Array<{
					id: string;
					type: 'function';
					function: { name: string; arguments: string };
				}>;
			};
			if (toolMessage) {
				message = { role: 'assistant', content: script.answer(text(toolMessage.content)) };
			} else {
				const tool = script.tool(body.tools ?? []);
				if (!tool) {
					message = {
						role: 'assistant',
						content: `no suitable tool among ${JSON.stringify((body.tools ?? []).map((t) => t.function.name))}`,
					};
				} else {
					const args = script.args(body.messages ?? []);
					calls.push({ name: tool.function.name, args });
					message = {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: `call_${seq}`,
								type: 'function',
								function: { name: tool.function.name, arguments: JSON.stringify(args) },
							},
						],
					};
				}
			}
			const finish = message.tool_calls ? 'tool_calls' : 'stop';
			const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
			if (!body.stream) {
				send(200, {
					id,
					object: 'chat.completion',
					created: Math.floor(Date.now() / 1000),
					model: body.model ?? STUB_MODEL,
					choices: [{ index: 0, message, finish_reason: finish }],
					usage,
				});
				return;
			}
			// streaming: the whole message in one delta, then the finish reason
			res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
			const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model ?? STUB_MODEL, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
			const delta = message.tool_calls
				? {
						role: 'assistant',
						content: null,
						tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })),
					}
				: { role: 'assistant', content: message.content };
			res.write(chunk(delta, null));
			res.write(chunk({}, finish));
			res.end('data: [DONE]\n\n');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		calls,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
