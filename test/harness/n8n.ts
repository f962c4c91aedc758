/* eslint-disable @typescript-eslint/no-explicit-any */
// In-process n8n runner built on the published n8n-core + n8n-workflow: real WorkflowExecute →
// RoutingNode / customOperations → OAuth2 signing and refresh → HTTP to the sandbox.
import {
	Credentials,
	DirectoryLoader,
	ExecutionLifecycleHooks,
	HookContext,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	type IConnections,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IRequestOptionsSimplified,
	type IRun,
	type IVersionedNodeType,
	type IWebhookData,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

type NodeTypeMap = Record<string, INodeType | IVersionedNodeType>;
type CredMap = Record<string, ICredentialDataDecryptedObject>;

/** Mimics n8n's loader: declarative nodes get the auto-added "Request Options" collection. */
export class TestNodeTypes implements INodeTypes {
	constructor(private readonly types: NodeTypeMap) {
		for (const t of Object.values(types)) {
			for (const v of 'nodeVersions' in t ? Object.values(t.nodeVersions) : [t]) {
				if (!v.description.properties.some((p) => p.name === 'requestOptions')) {
					DirectoryLoader.applyDeclarativeNodeOptionParameters(v);
				}
			}
		}
	}
	getByName(type: string) {
		const t = this.types[type];
		if (!t) throw new Error(`Unknown node type ${type}`);
		return t;
	}
	getByNameAndVersion(type: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	}
	getKnownTypes() {
		return {};
	}
}

/** The "credentials DB": type name → decrypted data. Records updates (refreshed OAuth2 tokens). */
export class TestCredentialsHelper extends ICredentialsHelper {
	readonly updates: Array<{ type: string; data: ICredentialDataDecryptedObject }> = [];
	constructor(
		private readonly types: Record<string, ICredentialType>,
		readonly store: CredMap,
	) {
		super();
	}
	/** must return the extends chain (['oAuth2Api']) or OAuth2 requests go out unsigned */
	getParentTypes(name: string): string[] {
		return (this.types[name]?.extends ?? []).flatMap((p) => [p, ...this.getParentTypes(p)]);
	}
	isCredentialUsableByNode() {
		return true;
	}
	async authenticate(
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		return requestOptions as IHttpRequestOptions;
	}
	async preAuthentication() {
		return undefined;
	}
	async runPreAuthentication() {
		return undefined;
	}
	async getCredentials(nc: INodeCredentialsDetails, type: string) {
		return new Credentials({ id: nc.id, name: nc.name }, type, '');
	}
	async getDecrypted(_ad: IWorkflowExecuteAdditionalData, _nc: INodeCredentialsDetails, type: string) {
		if (!this.store[type]) throw new Error(`No test credentials for type ${type}`);
		return structuredClone(this.store[type]);
	}
	async updateCredentials(_nc: INodeCredentialsDetails, type: string, data: ICredentialDataDecryptedObject) {
		this.store[type] = data;
		this.updates.push({ type, data });
	}
	async updateCredentialsOauthTokenData(_nc: INodeCredentialsDetails, type: string, data: ICredentialDataDecryptedObject) {
		this.store[type] = { ...this.store[type], oauthTokenData: data.oauthTokenData };
		this.updates.push({ type, data });
	}
	getCredentialsProperties(type: string) {
		return this.types[type]?.properties ?? [];
	}
}

export interface RunOptions {
	nodes: INode[];
	connections?: IConnections;
	startNode?: string;
	input?: INodeExecutionData[];
	nodeTypes: NodeTypeMap;
	credentialTypes?: Record<string, ICredentialType>;
	credentials?: CredMap;
	credentialsHelper?: TestCredentialsHelper;
	/** 'manual' (default) like "Execute workflow"; 'webhook' runs as a production execution */
	mode?: WorkflowExecuteMode;
	executionId?: string;
}

export function buildAdditionalData(
	opts: Pick<RunOptions, 'credentialTypes' | 'credentials' | 'credentialsHelper'>,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const notInTests = async () => {
		throw new Error('not supported in tests');
	};
	return {
		credentialsHelper:
			opts.credentialsHelper ?? new TestCredentialsHelper(opts.credentialTypes ?? {}, structuredClone(opts.credentials ?? {})),
		hooks,
		executeWorkflow: notInTests,
		startRunnerTask: notInTests,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		currentNodeParameters: undefined,
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
	} as unknown as IWorkflowExecuteAdditionalData;
}

export function buildWorkflow(opts: Pick<RunOptions, 'nodes' | 'connections' | 'nodeTypes'>) {
	return new Workflow({
		id: 'test-wf',
		nodes: opts.nodes,
		connections: opts.connections ?? {},
		nodeTypes: new TestNodeTypes(opts.nodeTypes),
		active: false,
		settings: { executionOrder: 'v1' },
	});
}

/** Runs from `startNode` with `input` items through WorkflowExecute. */
export async function runWorkflow(opts: RunOptions): Promise<IRun> {
	const workflow = buildWorkflow(opts);
	const startNode = workflow.getNode(opts.startNode ?? opts.nodes[0].name)!;
	const mode = opts.mode ?? 'manual';
	const executionId = opts.executionId ?? 'test-execution';
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: 'test-wf',
		name: 'test',
		active: false,
		nodes: opts.nodes,
		connections: opts.connections ?? {},
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase);
	let resolveRun!: (run: IRun) => void;
	const done = new Promise<IRun>((r) => (resolveRun = r));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: startNode, data: { main: [opts.input ?? [{ json: {} }]] }, source: null }] },
	});
	const additionalData = buildAdditionalData(opts, hooks);
	(additionalData as any).executionId = executionId;
	await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow);
	return await done;
}

/** Items of a node's first run, main output 0; rethrows the node's error. */
export function outputOf(run: IRun, nodeName: string, output = 0): INodeExecutionData[] {
	const task = run.data.resultData.runData[nodeName]?.[0];
	if (!task) throw new Error(`Node ${nodeName} did not run. error=${run.data.resultData.error?.message}`);
	if (task.error) throw task.error;
	return task.data?.main?.[output] ?? [];
}

/** The error a node failed with (undefined when it succeeded). */
export function errorOf(run: IRun, nodeName: string): (Error & { description?: string; context?: any; httpCode?: string }) | undefined {
	return run.data.resultData.runData[nodeName]?.[0]?.error as any;
}

/** Webhook trigger: `this` for webhookMethods (HookContext) and for webhook() (WebhookContext + fake response). */
export function triggerHarness(
	opts: Pick<RunOptions, 'nodeTypes' | 'credentialTypes' | 'credentials' | 'credentialsHelper'>,
	node: INode,
	webhookName = 'default',
) {
	const workflow = buildWorkflow({ nodes: [node], nodeTypes: opts.nodeTypes });
	const additionalData = buildAdditionalData(opts);
	const { webhooks } = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;
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
		staticData: () => workflow.getStaticData('node', node),
		hookContext: (mode: 'trigger' | 'manual' = 'trigger', activation: WorkflowActivateMode = 'activate') =>
			new HookContext(workflow, node, additionalData, mode, activation, webhookData),
		webhookContext: (req: { body?: unknown; headers?: Record<string, string>; query?: Record<string, string> }) => {
			const sent: { status?: number; body?: unknown } = {};
			const res: any = {
				status: (c: number) => ((sent.status = c), res),
				type: () => res,
				setHeader: () => res,
				send: (b?: unknown) => ((sent.body = b), res),
				json: (b?: unknown) => ((sent.body = b), res),
				end: () => res,
			};
			const ad = additionalData as unknown as Record<string, unknown>;
			ad.httpRequest = { headers: {}, query: {}, body: {}, ...req };
			ad.httpResponse = res;
			return { ctx: new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null), sent };
		},
	};
}
