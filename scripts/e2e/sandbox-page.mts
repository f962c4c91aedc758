// e2e step: the sandbox's own pages, as a user following the trigger example's sticky note does it.
// With the trigger example published (step 7), Chromium opens the sandbox page, searches the deal
// the sticky note names, picks another Stage and saves; the page says it saved, the channels page
// shows the delivery to n8n, and n8n runs the trigger workflow with the new stage.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO } from '../n8n-runtime.mts';
import { assert, sleep } from './context.mts';
import type { StepContext } from './context.mts';

const EXAMPLE = '03-deal-stage-changed-trigger.json';
/** a loaded machine answers slowly: more than Playwright's default 30 s */
const SLOW = 90_000;

/** The deal the example's sticky note tells the user to open. */
function dealOfStickyNote(): string {
	const example = JSON.parse(readFileSync(path.join(REPO, 'examples', EXAMPLE), 'utf8')) as {
		nodes: Array<{ type: string; parameters: { content?: string } }>;
	};
	const note = example.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')?.parameters;
	const name = /open the deal \*\*([^*]+)\*\*/.exec(note?.content ?? '')?.[1];
	assert(name, `the sticky note of ${EXAMPLE} names no deal to open`);
	return name;
}

type Execution = { id: string; status: string };

async function executionsOf(ctx: StepContext, workflowId: string): Promise<Execution[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const list = await ctx.api.request<{ results?: Execution[] }>(
		'GET',
		`/rest/executions?filter=${filter}`,
	);
	return list.data.results ?? [];
}

export async function sandboxPageStep(ctx: StepContext): Promise<void> {
	const { page, stack } = ctx;
	const workflow = stack.workflows.find((w) => w.file === EXAMPLE);
	assert(workflow, `${EXAMPLE} was not imported`);
	const active = await ctx.api.request<{ active?: boolean }>(
		'GET',
		`/rest/workflows/${workflow.id}`,
	);
	assert(active.data.active, `the trigger example is not published (step 7 publishes it)`);

	const name = dealOfStickyNote();
	const found = await ctx.sandbox.call<{ data?: Array<{ id: string; Stage: string }> }>(
		'GET',
		`/crm/v2.1/Deals/search?criteria=${encodeURIComponent(`(Deal_Name:equals:${name})`)}`,
	);
	const deal = found.body.data?.[0];
	assert(deal, `the sandbox has no deal "${name}"`);
	const newStage =
		deal.Stage === 'Value Proposition' ? 'Proposal/Price Quote' : 'Value Proposition';
	const before = new Set((await executionsOf(ctx, workflow.id)).map((e) => e.id));

	// the page, as the sticky note says: Deals → search → the deal → Stage → Save
	await page.goto(`${stack.sandboxUrl}/ui/modules/Deals`);
	await page.locator('input[name="q"]').fill(name);
	await page.locator('form[method="get"] button[type="submit"]').click();
	await page.locator('a', { hasText: name }).first().click({ timeout: SLOW });
	const stage = page.locator('form.record select[name="Stage"]');
	await stage.waitFor({ timeout: SLOW });
	await stage.selectOption(newStage);
	await page.locator('form.record button[type="submit"]').click();
	await page.getByText('Record saved.').waitFor({ timeout: SLOW });
	assert(
		(await stage.inputValue()) === newStage,
		`after saving, the page shows Stage "${await stage.inputValue()}", not "${newStage}"`,
	);
	await ctx.shot('22-sandbox-deal-saved.png');
	ctx.log(`  on the sandbox page: "${name}" from ${deal.Stage} to ${newStage}`);

	// n8n runs the trigger workflow for that change
	let execution: Execution | undefined;
	for (const deadline = Date.now() + 60_000; ; await sleep(1000)) {
		execution = (await executionsOf(ctx, workflow.id)).find(
			(e) => !before.has(e.id) && e.status === 'success',
		);
		if (execution) break;
		assert(Date.now() < deadline, 'no new successful trigger execution 60 s after the page edit');
	}
	const detail = await ctx.api.request<{ data?: string }>(
		'GET',
		`/rest/executions/${execution.id}`,
	);
	const data = String(detail.data?.data ?? '');
	assert(
		data.includes(newStage) && data.includes(deal.id),
		`execution ${execution.id} does not carry deal ${deal.id} with Stage "${newStage}"`,
	);

	// the channels page shows the delivery that started it, with its attempt
	await page.goto(`${stack.sandboxUrl}/ui/channels`);
	const row = page.locator('table.deliveries tr', { hasText: deal.id }).first();
	await row.waitFor({ timeout: SLOW });
	const text = await row.innerText();
	assert(/delivered/.test(text) && /HTTP 200/.test(text), `the delivery row reads "${text}"`);
	await ctx.shot('22-sandbox-channel-deliveries.png');
}
