// The CRM Polling Trigger in n8n-core's engine, as n8n runs a polling trigger: each poll builds a
// PollContext (n8n-core) for the same workflow, in mode 'trigger' (an active workflow) or 'manual'
// (Fetch Test Event), and calls the node's poll() holding an expression isolate. The workflow's
// static data lives on between polls as n8n keeps it; `durable: true` stages it per poll the way
// n8n's durable poll cursors do (a snapshot the poll changes, committed only when the poll ends
// normally). The sandbox clock moves through its /__sandbox/clock hook instead of waiting.
import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { CrmFixture } from './crm';
import { buildAdditionalData, buildWorkflow } from './n8n';
import { withIsolate } from './trigger';

export const POLL_TYPE = 'n8n-nodes-crm-service.crmPollingTrigger';

export interface PollerOptions {
	/** the poll's time budget (getPollBudgetMs), as n8n's tick engine sets it */
	budgetMs?: number;
	/** stage static data per poll and commit it when the poll returns (n8n's durable poll cursors) */
	durable?: boolean;
}

/** A polling trigger node of the package with a persistent workflow: poll() as n8n calls it. */
export function crmPoller(
	crm: CrmFixture,
	parameters: INode['parameters'],
	options: PollerOptions = {},
) {
	const node = crm.node('crmPollingTrigger', parameters, { name: 'CRM Polling Trigger' });
	const workflow = buildWorkflow({ nodes: [node], nodeTypes: crm.nodeTypes });
	const additionalData = buildAdditionalData({ credentialsHelper: crm.helper });
	const type = crm.nodeTypes[POLL_TYPE] as any;
	const emitted: INodeExecutionData[][] = [];
	const state = () => workflow.getStaticData('node', node) as IDataObject;
	/**
	 * `kind` (with `durable`), as n8n's scheduler runs polls: 'publishing' is the test poll it runs
	 * when the workflow is published (activation mode 'activate'; its node static data is committed
	 * only with an emit), 'scheduled' a poll on the schedule (activation mode 'update'). Without it:
	 * activation mode 'activate', static data kept as n8n keeps it without the scheduler.
	 */
	const poll = async (
		mode: 'trigger' | 'manual' = 'trigger',
		kind?: 'publishing' | 'scheduled',
	): Promise<INodeExecutionData[] | null> => {
		let staged: IDataObject | undefined;
		// a copy, as n8n clones the committed cursor (static data is an observable object)
		if (options.durable) staged = JSON.parse(JSON.stringify(state())) as IDataObject;
		const ctx = new PollContext(
			workflow,
			node,
			additionalData,
			mode,
			mode === 'manual' ? 'manual' : kind === 'scheduled' ? 'update' : 'activate',
			undefined,
			undefined,
			undefined,
			undefined,
			staged ? () => staged! : undefined,
			options.budgetMs === undefined ? undefined : () => options.budgetMs!,
		);
		const result: INodeExecutionData[][] | null = await withIsolate(
			workflow,
			async () => await type.poll.call(ctx as unknown as IPollFunctions),
		);
		if (staged && !(kind === 'publishing' && result === null)) {
			// committed with the execution (or alone when nothing was emitted; never for the publishing poll)
			const target = state();
			for (const key of Object.keys(target)) delete target[key];
			Object.assign(target, staged);
		}
		if (result === null) return null;
		if (mode === 'trigger') emitted.push(result[0]);
		return result[0];
	};
	return {
		node,
		workflow,
		poll,
		/** polls until one returns null (the backlog is read); answers every item, in order */
		drain: async (maxPolls = 1000): Promise<INodeExecutionData[]> => {
			const all: INodeExecutionData[] = [];
			for (let i = 0; i < maxPolls; i++) {
				const items = await poll();
				if (items === null) return all;
				all.push(...items);
			}
			throw new Error(`still emitting after ${maxPolls} polls`);
		},
		state,
		emitted,
	};
}

export type CrmPoller = ReturnType<typeof crmPoller>;
