// The steps of scripts/e2e/ that scripts/e2e.mts runs after its own, in this order.
import { agentToolStep } from './agent-tool.mts';
import { customApiCallStep } from './custom-api-call.mts';
import { examplesStep } from './examples.mts';
import type { StepContext } from './context.mts';

export type { StepContext } from './context.mts';

export async function toolSteps(ctx: StepContext): Promise<void> {
	const recordSkip = ctx.stack.nodes.some((n) => n.name === 'crmRecord') ? undefined : 'package has no crmRecord node';
	await ctx.step('AI Agent uses CRM Record → Search as a tool (scripted OpenAI-compatible model)', async () => await agentToolStep(ctx), recordSkip);
	await ctx.step('a custom CRM API call: HTTP Request with the CRM credential type, no dead "custom API call" link', async () => await customApiCallStep(ctx), recordSkip);
	await ctx.step('every workflow of examples/ opens without warnings, runs from "Execute workflow" and does what it says', async () => await examplesStep(ctx), recordSkip);
}
