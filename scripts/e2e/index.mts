// The steps of scripts/e2e/ that scripts/e2e.mts runs after its own, in this order.
import { agentToolStep } from './agent-tool.mts';
import { customApiCallStep } from './custom-api-call.mts';
import { triggerEventsStep } from './trigger-events.mts';
import type { StepContext } from './context.mts';

export type { StepContext } from './context.mts';

export async function toolSteps(ctx: StepContext): Promise<void> {
	const recordSkip = ctx.stack.nodes.some((n) => n.name === 'crmRecord') ? undefined : 'package has no crmRecord node';
	await ctx.step('AI Agent uses CRM Record → Search as a tool (scripted OpenAI-compatible model)', async () => await agentToolStep(ctx), recordSkip);
	await ctx.step('a custom CRM API call: HTTP Request with the CRM credential type, no dead "custom API call" link', async () => await customApiCallStep(ctx), recordSkip);
	const triggerSkip = ctx.stack.nodes.some((n) => n.name === 'crmTrigger') ? undefined : 'package has no crmTrigger node';
	await ctx.step("the node panel lists the CRM Trigger's events as separate entries", async () => await triggerEventsStep(ctx), triggerSkip);
}
