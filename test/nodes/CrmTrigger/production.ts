/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Production executions of a CRM Trigger workflow in-process, as n8n runs them after webhook():
// WorkflowExecute in mode 'webhook' (not 'manual', which skips the trigger's dedupe), each with its
// own execution id, sharing one deduplication store the way n8n's processes share the
// `processed_data` table.
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IConnections,
	IDataDeduplicator,
	IDeduplicationOutput,
	INode,
	INodeExecutionData,
	IRun,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import type { CrmFixture } from '../../harness/crm';
import { runWorkflow } from '../../harness/n8n';

/**
 * n8n's `processed_data` semantics for mode "entries" (n8n/dist/deduplication/deduplication-helper.js):
 * one row per workflow + node holding md5 hashes, read, changed and written back without a lock.
 * The read and the write are separate turns of the event loop, as two database round trips are.
 */
class ProcessedDataStore implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();
	private static hash = (v: DeduplicationItemTypes) => createHash('md5').update(String(v)).digest('base64');
	private static key = (ctx: ICheckProcessedContextData) => `${ctx.workflow.id}|n:${ctx.node?.id ?? ''}`;
	private static turn = () => new Promise((r) => setImmediate(r));

	async checkProcessedAndRecord(items: DeduplicationItemTypes[], _scope: unknown, ctx: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<IDeduplicationOutput> {
		const key = ProcessedDataStore.key(ctx);
		await ProcessedDataStore.turn();
		const stored = [...(this.rows.get(key) ?? [])];
		await ProcessedDataStore.turn();
		const out: IDeduplicationOutput = { new: [], processed: [] };
		const present = new Set(stored);
		for (const item of items) {
			const h = ProcessedDataStore.hash(item);
			if (present.has(h)) out.processed.push(item);
			else {
				out.new.push(item);
				stored.push(h);
				present.add(h);
			}
		}
		if (options.maxEntries) stored.splice(0, Math.max(0, stored.length - options.maxEntries));
		this.rows.set(key, stored);
		return out;
	}
	async removeProcessed() {}
	async clearAllProcessedItems(_scope: unknown, ctx: ICheckProcessedContextData) {
		this.rows.delete(ProcessedDataStore.key(ctx));
	}
	async getProcessedDataCount(_scope: unknown, ctx: ICheckProcessedContextData) {
		return this.rows.get(ProcessedDataStore.key(ctx))?.length ?? 0;
	}
}

let store: ProcessedDataStore | undefined;
/** n8n's processes call DataDeduplicationService.init() at start; once per jest module registry. */
export function processedData(): ProcessedDataStore {
	if (!store) {
		store = new ProcessedDataStore();
		void DataDeduplicationService.init(store);
	}
	return store;
}

let executionCounter = 1000;

/** One production execution from the trigger with the items webhook() returned ('retry': a Retry from the executions list). */
export async function runProduction(
	crm: CrmFixture,
	nodes: INode[],
	items: INodeExecutionData[],
	connections: IConnections = {},
	executionId = String(++executionCounter),
	mode: WorkflowExecuteMode = 'webhook',
): Promise<IRun> {
	processedData();
	return await runWorkflow({ nodes, connections, input: items, nodeTypes: crm.nodeTypes, credentialsHelper: crm.helper, mode, executionId });
}
