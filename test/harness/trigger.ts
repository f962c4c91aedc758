// The CRM Trigger in n8n-core's engine, as n8n runs a webhook trigger: activation through the
// node's webhookMethods (HookContext: checkExists → create; delete on deactivation), each POST to
// the webhook URL handed to webhook() (WebhookContext), and the execution webhook() starts run as a
// production execution (WorkflowExecute in mode 'webhook', the trigger's execute() first) sharing
// one deduplication store the way n8n's processes share the `processed_data` table. Every call that
// may evaluate expressions holds an expression isolate, as n8n's webhook and activation paths do.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';

import { DataDeduplicationService, HookContext, WebhookContext } from 'n8n-core';
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
	IWebhookData,
	IWebhookResponseData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
	Workflow,
} from 'n8n-workflow';

import type { CrmFixture } from './crm';
import {
	buildAdditionalData,
	buildWorkflow,
	ensureExpressionEngine,
	outputOf,
	releaseBeforeDispose,
	runWorkflow,
} from './n8n';
import type { RunOptions } from './n8n';
import type { Receiver } from './receiver';

export const TRIGGER_TYPE = 'n8n-nodes-crm-service.crmTrigger';

/** Runs `fn` holding an expression isolate for the workflow (n8n's withExpressionIsolate). */
export async function withIsolate<T>(workflow: Workflow, fn: () => Promise<T>): Promise<T> {
	await ensureExpressionEngine();
	return await workflow.expression.withIsolate(fn);
}

/** Webhook trigger: `this` for webhookMethods (HookContext) and for webhook() (WebhookContext + fake response). */
export function triggerHarness(
	opts: Pick<RunOptions, 'nodeTypes' | 'credentialTypes' | 'credentials' | 'credentialsHelper'>,
	node: INode,
	webhookName = 'default',
) {
	const workflow = buildWorkflow({ nodes: [node], nodeTypes: opts.nodeTypes });
	const additionalData = buildAdditionalData(opts);
	const { webhooks } = workflow.nodeTypes.getByNameAndVersion(
		node.type,
		node.typeVersion,
	).description;
	const webhookDescription = webhooks!.find((w) => w.name === webhookName)!;
	const webhookData = {
		httpMethod: webhookDescription.httpMethod,
		node: node.name,
		path: webhookDescription.path,
		webhookDescription,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
	} as IWebhookData;
	return {
		workflow,
		additionalData,
		webhookPath: String(webhookDescription.path),
		staticData: () => workflow.getStaticData('node', node),
		hookContext: (
			mode: 'trigger' | 'manual' = 'trigger',
			activation: WorkflowActivateMode = 'activate',
		) => new HookContext(workflow, node, additionalData, mode, activation, webhookData),
		webhookContext: (req: {
			body?: unknown;
			headers?: Record<string, string>;
			query?: Record<string, string>;
		}) => {
			const sent: { status?: number; body?: unknown } = {};
			// the state of Node's http.ServerResponse that the trigger reads: statusCode, writableEnded, 'close'
			const closed = new EventEmitter();
			const res: any = {
				statusCode: 200,
				writableEnded: false,
				once: (event: string, listener: () => void) => closed.once(event, listener),
				status: (c: number) => ((sent.status = c), (res.statusCode = c), res),
				type: () => res,
				setHeader: () => res,
				send: (b?: unknown) => ((sent.body = b), res),
				json: (b?: unknown) => ((sent.body = b), res),
				end: () => {
					res.writableEnded = true;
					closed.emit('close');
					return res;
				},
			};
			const ad = additionalData as unknown as Record<string, unknown>;
			ad.httpRequest = { headers: {}, query: {}, body: {}, ...req };
			ad.httpResponse = res;
			return {
				ctx: new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null),
				sent,
				/**
				 * n8n's answer after webhook() returned (the node answered nothing itself): 200 once the
				 * execution is stored and queued, an error status when storing it failed; `'gone'`: the
				 * client stopped waiting before any answer ('close' without an end), n8n answers later
				 */
				answer: (status: number | 'gone') => {
					if (res.writableEnded) return;
					if (status === 'gone') closed.emit('close');
					else res.status(status).end();
				},
			};
		},
		withIsolate: async <T>(fn: () => Promise<T>) => await withIsolate(workflow, fn),
		/** for a caller that must call the node synchronously right after (withIsolate awaits first): true when newly acquired */
		acquireIsolate: async () => {
			await ensureExpressionEngine();
			return await workflow.expression.acquireIsolate();
		},
		releaseIsolate: async () => await workflow.expression.releaseIsolate(),
	};
}

export type TriggerHarness = ReturnType<typeof triggerHarness>;

/**
 * n8n's `processed_data` semantics for mode "entries" (n8n/dist/deduplication/deduplication-helper.js):
 * one row per workflow + node holding md5 hashes, read, changed and written back without a lock.
 * The read and the write are separate turns of the event loop, as two database round trips are.
 */
class ProcessedDataStore implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();
	private static hash = (v: DeduplicationItemTypes) =>
		createHash('md5').update(String(v)).digest('base64');
	private static key = (ctx: ICheckProcessedContextData) =>
		`${ctx.workflow.id}|n:${ctx.node?.id ?? ''}`;
	private static turn = () => new Promise((r) => setImmediate(r));

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		_scope: unknown,
		ctx: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
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
	async removeProcessed(
		items: DeduplicationItemTypes[],
		_scope: unknown,
		ctx: ICheckProcessedContextData,
	): Promise<void> {
		const key = ProcessedDataStore.key(ctx);
		await ProcessedDataStore.turn();
		const stored = this.rows.get(key);
		if (!stored) return;
		const kept = [...stored];
		await ProcessedDataStore.turn();
		for (const item of items) {
			const index = kept.indexOf(ProcessedDataStore.hash(item));
			if (index !== -1) kept.splice(index, 1);
		}
		this.rows.set(key, kept);
	}
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
	return await runWorkflow({
		nodes,
		connections,
		input: items,
		nodeTypes: crm.nodeTypes,
		credentialsHelper: crm.helper,
		mode,
		executionId,
	});
}

export interface TriggerOptions {
	/** origin the webhook URLs are on (a receiver's url): `<origin>/webhook/<webhookId>/webhook`, `/webhook-test/` in manual mode */
	origin: string;
	webhookId: string;
	/** 'trigger': an activated workflow (production executions); 'manual': "Listen for test event" (manual runs) */
	mode?: 'trigger' | 'manual';
	/** 'inline' (default): deliver() returns after the execution; 'background': after webhook(), as n8n answers; settled() awaits them */
	executions?: 'inline' | 'background';
}

/**
 * A CRM Trigger node of the package, wired to `origin`: activation, delivery and the executions it
 * started. Nothing is activated yet: call activate() (or checkExists()/create()).
 */
export function crmTrigger(
	crm: CrmFixture,
	parameters: INode['parameters'],
	options: TriggerOptions,
) {
	const mode = options.mode ?? 'trigger';
	const node = crm.node('crmTrigger', parameters, {
		name: 'CRM Trigger',
		webhookId: options.webhookId,
	});
	const trigger = crm.nodeTypes[TRIGGER_TYPE] as any;
	const t = triggerHarness({ nodeTypes: crm.nodeTypes, credentialsHelper: crm.helper }, node);
	// n8n's test webhooks (isTest) use webhookTestBaseUrl; the harness's webhook data is not a test one,
	// so a manual-mode trigger gets the test base URL as its base URL
	const baseUrl = `${options.origin}/${mode === 'manual' ? 'webhook-test' : 'webhook'}`;
	(t.additionalData as unknown as Record<string, string>).webhookBaseUrl = baseUrl;
	const url = `${baseUrl}/${options.webhookId}/${t.webhookPath}`;
	// n8n acquires an expression isolate per activation and per webhook request (each a fresh one:
	// ~60-120 ms on a busy 2-core machine). Calls through this trigger are sequential (the receiver
	// serialises deliveries), so it holds one isolate for its hooks and webhook() calls until delete()
	// instead: the same engine, one cold start per activation. Executions acquire their own, as in n8n.
	let held: Promise<boolean> | undefined;
	let forget: (() => void) | undefined;
	const release = async () => {
		const owned = held && (await held);
		held = undefined;
		forget?.();
		if (owned) await t.releaseIsolate();
	};
	const holdIsolate = async () => {
		if (!held) {
			held = t.acquireIsolate();
			// a test that ends without delete() must not keep the isolate past the engine
			forget = releaseBeforeDispose(release);
		}
		await held;
	};
	const hook = async (name: 'checkExists' | 'create' | 'delete'): Promise<boolean> => {
		await holdIsolate();
		return await trigger.webhookMethods.default[name].call(t.hookContext(mode));
	};
	const executions: IRun[] = [];
	const webhookResults: IWebhookResponseData[] = [];
	const running: Array<Promise<void>> = [];
	const execute = async (items: INodeExecutionData[]) => {
		executions.push(
			mode === 'manual' ? await crm.run([node], items) : await runProduction(crm, [node], items),
		);
	};
	/** what n8n does with a POST to the webhook URL: webhook(), then one execution with its items (`execute: false`: webhook() only) */
	const deliver = async (
		body: unknown,
		deliverOptions: { execute?: boolean } = {},
	): Promise<{ status: number; result: IWebhookResponseData }> => {
		await holdIsolate();
		// the request goes into the shared additional data: built right before webhook() runs
		const { ctx, sent, answer } = t.webhookContext({
			body,
			headers: { 'content-type': 'application/json' },
		});
		const result: IWebhookResponseData = await trigger.webhook.call(ctx);
		webhookResults.push(result);
		const status = result.noWebhookResponse ? (sent.status ?? 200) : 200;
		// n8n stored and queued the execution (or started none), then answers
		answer(200);
		if (result.workflowData && deliverOptions.execute !== false) {
			if (options.executions === 'background') running.push(execute(result.workflowData[0]));
			else await execute(result.workflowData[0]);
		}
		return { status, result };
	};
	return {
		node,
		t,
		url,
		executions,
		webhookResults,
		deliver,
		state: () => t.staticData() as Record<string, any>,
		checkExists: async () => await hook('checkExists'),
		create: async () => await hook('create'),
		delete: async () => {
			try {
				return await hook('delete');
			} finally {
				await release();
			}
		},
		/** activation as n8n does it: checkExists, then create when it answered false; true when it created */
		activate: async (): Promise<boolean> => {
			if (await hook('checkExists')) return false;
			await hook('create');
			return true;
		},
		/** items of every execution so far, in the order they finished */
		emitted: (): INodeExecutionData[][] => executions.map((run) => outputOf(run, node.name)),
		/** waits for the executions started in the background */
		settled: async () => {
			while (running.length > 0) await running.shift();
		},
	};
}

export type CrmTriggerUnderTest = ReturnType<typeof crmTrigger>;

/** The receiver hands each POST to the trigger whose webhook URL it was sent to (404 for none). */
export function routeDeliveries(
	receiver: Receiver,
	...triggers: Array<Pick<CrmTriggerUnderTest, 'deliver'> & { url: string | (() => string) }>
): void {
	const pathOf = (x: { url: string | (() => string) }) =>
		new URL(typeof x.url === 'string' ? x.url : x.url()).pathname;
	receiver.respond = async (req) => {
		const target = triggers.find((x) => req.path === pathOf(x));
		if (!target) return 404;
		return (await target.deliver(req.body)).status;
	};
}
