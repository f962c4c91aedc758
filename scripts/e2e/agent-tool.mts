// e2e step: n8n's AI Agent uses CRM Record → Search as a tool.
//
// The chat model is n8n's OpenAI Chat Model with an `openAiApi` credential whose Base URL is a
// scripted stub (llm-stub.mts): it calls the one tool it is offered with the e-mail address of the
// prompt, then answers with the contact the tool returned. The tool is the node type n8n derives
// from a `usableAsTool` node (`<package>.crmRecordTool`), its search value a `$fromAI()` parameter.
import { randomUUID } from 'node:crypto';

import { assert, createAndRun, sandboxRequests } from './context.mts';
import type { StepContext } from './context.mts';
import { startLlmStub, STUB_MODEL } from './llm-stub.mts';
import type { ChatTool } from './llm-stub.mts';

/** the name the editor gives a tool added through the "Search records" action */
const TOOL_NODE = 'Search records';

export async function agentToolStep(ctx: StepContext): Promise<void> {
	const record = ctx.stack.nodes.find((n) => n.name === 'crmRecord');
	assert(record, 'the package has no crmRecord node');

	// 1. the tool variant n8n lists for CRM Record
	const types = await ctx.api.request<
		Array<{
			name: string;
			displayName: string;
			outputs?: unknown;
			properties?: Array<{ name: string }>;
		}>
	>('GET', '/types/nodes.json');
	assert(Array.isArray(types.data), `GET /types/nodes.json answered ${types.status}`);
	const toolType = `${record.type}Tool`;
	const tool = types.data.find((t) => t.name === toolType);
	assert(
		tool,
		`n8n lists no ${toolType} (CRM tools listed: ${types.data
			.filter((t) => t.name.startsWith(record.type.split('.')[0]))
			.map((t) => t.name)
			.join(', ')})`,
	);
	assert(
		JSON.stringify(tool.outputs).includes('ai_tool'),
		`${toolType} does not output ai_tool: ${JSON.stringify(tool.outputs)}`,
	);
	ctx.log(`  n8n lists ${toolType} ("${tool.displayName}")`);

	// 2. a contact only this step knows
	const stamp = Date.now().toString(36);
	const contact = {
		First_Name: 'Ada',
		Last_Name: `Lovelace-${stamp}`,
		Email: `ada.${stamp}@agent-e2e.example`,
	};
	const created = await ctx.sandbox.call<{
		data: Array<{ code: string; details: { id: string } }>;
	}>('POST', '/crm/v2.1/Contacts', { data: [contact] });
	assert(
		created.body.data?.[0]?.code === 'SUCCESS',
		`the sandbox did not create the contact: ${JSON.stringify(created.body)}`,
	);
	const contactId = created.body.data[0].details.id;

	// 3. the scripted model: one tool call with the prompt's e-mail address, then an answer from the tool result
	const stub = await startLlmStub({
		tool: (tools: ChatTool[]) => (tools.length === 1 ? tools[0] : undefined),
		args: (messages) => {
			const prompt = messages
				.filter((m) => m.role === 'user')
				.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
				.join(' ');
			return { email: /[\w.+-]+@[\w.-]+\.\w+/.exec(prompt)?.[0] ?? '' };
		},
		answer: (toolResult) => {
			const found = findRecord(toolResult, (r) => r.Email === contact.Email);
			return found
				? `The contact is ${String(found.First_Name)} ${String(found.Last_Name)} (record id ${String(found.id)}).`
				: `No contact found: ${toolResult.slice(0, 200)}`;
		},
	});
	try {
		const openAi = await ctx.api.request<{ id?: string; name?: string }>(
			'POST',
			'/rest/credentials',
			{
				name: 'Scripted chat model (e2e stub)',
				type: 'openAiApi',
				data: { apiKey: 'e2e-stub-key', url: stub.baseUrl, header: false },
			},
		);
		assert(
			openAi.status === 200 && openAi.data.id,
			`n8n refused the openAiApi credential: ${openAi.status} ${JSON.stringify(openAi.data).slice(0, 300)}`,
		);
		const crm = await ctx.api.request<{ id: string; name: string }>(
			'GET',
			`/rest/credentials/${ctx.stack.credentialId}`,
		);
		await ctx.sandbox.call('DELETE', '/__sandbox/requests');

		const node = (
			name: string,
			type: string,
			typeVersion: number,
			position: [number, number],
			parameters: Record<string, unknown>,
			credentials?: Record<string, unknown>,
		) => ({
			id: randomUUID(),
			name,
			type,
			typeVersion,
			position,
			parameters,
			...(credentials ? { credentials } : {}),
		});
		const run = await createAndRun(
			ctx,
			{
				name: 'AI Agent finds a CRM contact (e2e)',
				nodes: [
					node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
					node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, [260, 0], {
						promptType: 'define',
						text: `Who is the CRM contact with the e-mail address ${contact.Email}? Give their name and record id.`,
						options: {},
					}),
					node(
						'Chat model',
						'@n8n/n8n-nodes-langchain.lmChatOpenAi',
						1.2,
						[180, 240],
						{ model: { __rl: true, mode: 'id', value: STUB_MODEL }, options: {} },
						{
							openAiApi: { id: openAi.data.id, name: openAi.data.name },
						},
					),
					node(
						TOOL_NODE,
						toolType,
						1,
						[420, 240],
						{
							resource: 'record',
							operation: 'search',
							module: 'Contacts',
							searchBy: 'email',
							searchValue:
								"={{ $fromAI('email', 'E-mail address of the contact to find', 'string') }}",
							returnAll: false,
							limit: 5,
							options: {},
						},
						{ crmOAuth2Api: { id: crm.data.id, name: crm.data.name } },
					),
				],
				connections: {
					Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
					'Chat model': {
						ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
					},
					[TOOL_NODE]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				},
			},
			'Start',
		);
		ctx.log(`  execution ${run.executionId}: ${run.status}`);

		// what the model was offered: the tool's name and description as n8n builds them
		const offered = stub.requests[0]?.tools ?? [];
		assert(
			offered.length === 1,
			`the model was offered ${offered.length} tools: ${JSON.stringify(offered.map((t) => t.function.name))}${run.error ? ` (run: ${run.error})` : ''}`,
		);
		const { name, description, parameters } = offered[0].function;
		ctx.log(
			`  tool offered to the model: name ${JSON.stringify(name)}, description ${JSON.stringify(description)}, parameters ${JSON.stringify(parameters)}`,
		);
		assert(
			name === TOOL_NODE.replace(/[^a-zA-Z0-9_-]+/g, '_'),
			`tool name ${JSON.stringify(name)}, expected the node name made a tool name`,
		);
		// the node's own tool description (nodes/shared/description/nodeDescription.ts toolText): what the tool does and returns
		assert(
			/^Search records in the CRM: .+\. Returns one item per matching record, with its id and field values\.$/.test(
				description,
			),
			`tool description ${JSON.stringify(description)}`,
		);
		assert(
			JSON.stringify(parameters ?? {}).includes('"email"'),
			`the tool's parameters do not ask for "email": ${JSON.stringify(parameters)}`,
		);

		// the model's arguments reached the CRM: SearchRecords by e-mail (docs/protocol.md §5.1)
		assert(
			stub.calls.length === 1 && stub.calls[0].args.email === contact.Email,
			`the stub's tool calls: ${JSON.stringify(stub.calls)}`,
		);
		const searches = (await sandboxRequests(ctx)).filter(
			(r) => r.method === 'GET' && r.url.startsWith('/crm/v2.1/Contacts/search'),
		);
		const search = searches.find(
			(r) => new URL(r.url, 'http://x').searchParams.get('email') === contact.Email,
		);
		assert(
			search?.status === 200,
			`the sandbox saw no search by the model's e-mail: ${JSON.stringify(searches)}`,
		);

		// the tool result went back to the model, and its answer carries the contact
		const toolMessage = stub.requests[1]?.messages.find((m) => m.role === 'tool');
		assert(
			toolMessage && JSON.stringify(toolMessage.content).includes(contactId),
			`the model got no tool result with the contact id ${contactId}: ${JSON.stringify(stub.requests[1]?.messages ?? []).slice(0, 400)}`,
		);
		assert(run.status === 'success', `the agent workflow ended ${run.status}: ${run.error ?? ''}`);
		const output = String(run.output['AI Agent']?.[0]?.output ?? '');
		ctx.log(`  agent answered: ${output}`);
		assert(
			output.includes(contact.Last_Name) && output.includes(contactId),
			`the agent's answer does not name the contact ${contact.Last_Name} (${contactId}): ${JSON.stringify(run.output['AI Agent'])}`,
		);

		// the run as the editor shows it
		await ctx.page.goto(`/workflow/${run.workflowId}/executions/${run.executionId}`);
		await ctx.page
			.locator('[data-test-id="canvas-node"]')
			.first()
			.waitFor({ timeout: 30_000 })
			.catch(() => undefined);
		await ctx.page.waitForTimeout(2000);
		await ctx.shot('15-ai-agent-crm-tool-execution.png');
		await ctx.page.goto(`/workflow/${run.workflowId}`);
		const toolOnCanvas = ctx.page.locator(
			`[data-test-id="canvas-node"][data-node-name="${TOOL_NODE}"]`,
		);
		await toolOnCanvas.waitFor({ timeout: 30_000 });
		await ctx.page.waitForTimeout(1000);
		await ctx.shot('15-ai-agent-crm-tool-workflow.png');

		// the tool's panel: "Description" follows the operation, as an expression a person can replace
		await toolOnCanvas.dblclick();
		const field = ctx.page.locator('[data-test-id="parameter-input-toolDescription"]');
		await field.waitFor({ timeout: 30_000 });
		await field.click();
		// the expression's result shows in a popover under the field (outside the panel's element)
		const result = ctx.page
			.getByText(/^Search records in the CRM: .*Returns one item per matching record/)
			.first();
		const shown = await result.waitFor({ timeout: 15_000 }).then(
			() => true,
			() => false,
		);
		ctx.log(
			`  tool panel Description: ${JSON.stringify((await field.innerText()).trim().slice(0, 160))}`,
		);
		await ctx.shot('15-ai-agent-crm-tool-description.png');
		assert(shown, 'the tool panel does not show the description with what the tool returns');
		ctx.log(`  shown as: ${JSON.stringify((await result.innerText()).trim())}`);
	} finally {
		await stub.close();
	}
}

/** The first object in a JSON text (at any depth) that `match` accepts. */
function findRecord(
	json: string,
	match: (r: Record<string, unknown>) => boolean,
): Record<string, unknown> | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(json);
	} catch {
		return undefined;
	}
	const walk = (v: unknown): Record<string, unknown> | undefined => {
		if (Array.isArray(v)) {
			for (const x of v) {
				const hit = walk(x);
				if (hit) return hit;
			}
		} else if (v && typeof v === 'object') {
			const r = v as Record<string, unknown>;
			if (match(r)) return r;
			for (const x of Object.values(r)) {
				const hit = walk(x);
				if (hit) return hit;
			}
		} else if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
			return findRecord(v, match);
		}
		return undefined;
	};
	return walk(parsed);
}
