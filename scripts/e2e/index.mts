// The steps of scripts/e2e/ that scripts/e2e.mts runs after its own, in this order.
import { agentToolStep } from './agent-tool.mts';
import { customApiCallStep } from './custom-api-call.mts';
import { examplesStep } from './examples.mts';
import { firstOpenStep } from './first-open.mts';
import { updateMapperStep } from './update-mapper.mts';
import { pollingTriggerStep } from './polling-trigger.mts';
import { sandboxPageStep } from './sandbox-page.mts';
import { triggerEventsStep } from './trigger-events.mts';
import type { StepContext } from './context.mts';

export type { StepContext } from './context.mts';

export async function toolSteps(ctx: StepContext): Promise<void> {
	const recordSkip = ctx.stack.nodes.some((n) => n.name === 'crmRecord')
		? undefined
		: 'package has no crmRecord node';
	await ctx.step(
		'AI Agent uses CRM Record → Search as a tool (scripted OpenAI-compatible model)',
		async () => await agentToolStep(ctx),
		recordSkip,
	);
	await ctx.step(
		'a custom CRM API call: HTTP Request with the CRM credential type, no dead "custom API call" link',
		async () => await customApiCallStep(ctx),
		recordSkip,
	);
	await ctx.step(
		'every workflow of examples/ opens without warnings, runs from "Execute workflow" and does what it says',
		async () => await examplesStep(ctx),
		recordSkip,
	);
	await ctx.step(
		'first open, 10 fresh workflows: Manual Trigger → + → CRM Record / CRM Bulk action; the Module list loads, no "Error fetching options"',
		async () => await firstOpenStep(ctx),
		recordSkip,
	);
	await ctx.step(
		'Update with "Map Each Field Below": Leads → the Record ID box at once → fill → execute → the lead is changed',
		async () => await updateMapperStep(ctx),
		recordSkip,
	);
	const pollingSkip = ctx.stack.nodes.some((n) => n.name === 'crmPollingTrigger')
		? undefined
		: 'package has no crmPollingTrigger node';
	await ctx.step(
		'CRM Polling Trigger: next to the CRM Trigger in the node panel; published, polls new leads into one execution, unpublished',
		async () => await pollingTriggerStep(ctx),
		pollingSkip,
	);
	const triggerSkip = ctx.stack.nodes.some((n) => n.name === 'crmTrigger')
		? undefined
		: 'package has no crmTrigger node';
	await ctx.step(
		"the node panel lists the CRM Trigger's events as separate entries",
		async () => await triggerEventsStep(ctx),
		triggerSkip,
	);
	await ctx.step(
		"the sandbox page: the deal of the trigger example's sticky note gets another stage, n8n runs the trigger workflow",
		async () => await sandboxPageStep(ctx),
		triggerSkip,
	);
}
