// In-process n8n runner built on the published n8n-core + n8n-workflow: real WorkflowExecute →
// RoutingNode / customOperations → OAuth2 signing and refresh → HTTP to the sandbox.
import { Credentials, DirectoryLoader, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	Expression,
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
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

type ExpressionEngineOptions = Parameters<typeof Expression.initExpressionEngine>[0];

/**
 * The expression engine n8n starts with: @n8n/config's ExpressionEngineConfig defaults (engine `vm`,
 * isolated-vm through @n8n/expression-runtime) and their N8N_EXPRESSION_ENGINE* overrides, passed the
 * way n8n's BaseCommand passes them to Expression.initExpressionEngine (idle timeout in ms; no
 * observability provider here).
 */
export function expressionEngineOptions(
	env: NodeJS.ProcessEnv = process.env,
): ExpressionEngineOptions {
	const num = (name: string, fallback: number) =>
		env[name] === undefined ? fallback : Number(env[name]);
	const bool = (name: string, fallback: boolean) =>
		env[name] === undefined ? fallback : env[name] === 'true';
	const idle = env.N8N_EXPRESSION_ENGINE_IDLE_TIMEOUT;
	return {
		engine: (env.N8N_EXPRESSION_ENGINE ?? 'vm') as ExpressionEngineOptions['engine'],
		poolSize: num('N8N_EXPRESSION_ENGINE_POOL_SIZE', 1),
		maxCodeCacheSize: num('N8N_EXPRESSION_ENGINE_MAX_CODE_CACHE_SIZE', 1024),
		bridgeTimeout: num('N8N_EXPRESSION_ENGINE_TIMEOUT', 5000),
		bridgeMemoryLimit: num('N8N_EXPRESSION_ENGINE_MEMORY_LIMIT', 128),
		idleTimeoutMs: idle === undefined ? undefined : Number(idle) * 1000,
		lazyAcquire: bool('N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE', false),
		compileCache: bool('N8N_EXPRESSION_ENGINE_COMPILE_CACHE', false),
	};
}

let engineStart: Promise<void> | undefined;
const releasers = new Set<() => Promise<void>>();

/** Registers a release of an isolate held outside an execution (run, then forgotten, before disposal). */
export function releaseBeforeDispose(release: () => Promise<void>): () => void {
	releasers.add(release);
	return () => releasers.delete(release);
}

/** Starts n8n's default expression engine once per module registry (one per jest test file). */
export async function ensureExpressionEngine(): Promise<void> {
	engineStart ??= Expression.initExpressionEngine(expressionEngineOptions());
	await engineStart;
}

/** Disposes the engine's isolates so the process (a jest worker) can exit. */
export async function disposeExpressionEngine(): Promise<void> {
	if (!engineStart) return;
	const starting = engineStart;
	engineStart = undefined;
	await starting.catch(() => undefined);
	// the pool disposes only the isolates it holds, not the ones callers still hold
	for (const release of [...releasers]) await release().catch(() => undefined);
	releasers.clear();
	await Expression.disposeExpressionEngine();
}

// under jest: dispose after the test file that loaded the harness (a bench script outside jest calls it itself)
if (typeof afterAll === 'function') afterAll(disposeExpressionEngine);

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
	async getDecrypted(
		_ad: IWorkflowExecuteAdditionalData,
		_nc: INodeCredentialsDetails,
		type: string,
	) {
		if (!this.store[type]) throw new Error(`No test credentials for type ${type}`);
		return structuredClone(this.store[type]);
	}
	async updateCredentials(
		_nc: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.store[type] = data;
		this.updates.push({ type, data });
	}
	async updateCredentialsOauthTokenData(
		_nc: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
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
			opts.credentialsHelper ??
			new TestCredentialsHelper(
				opts.credentialTypes ?? {},
				structuredClone(opts.credentials ?? {}),
			),
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
	await ensureExpressionEngine();
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
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [opts.input ?? [{ json: {} }]] }, source: null },
			],
		},
	});
	const additionalData = buildAdditionalData(opts, hooks);
	(additionalData as any).executionId = executionId;
	await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(
		workflow,
	);
	return await done;
}

/** Items of a node's first run, main output 0; rethrows the node's error. */
export function outputOf(run: IRun, nodeName: string, output = 0): INodeExecutionData[] {
	const task = run.data.resultData.runData[nodeName]?.[0];
	if (!task)
		throw new Error(`Node ${nodeName} did not run. error=${run.data.resultData.error?.message}`);
	if (task.error) throw task.error;
	return task.data?.main?.[output] ?? [];
}

/** The error a node failed with (undefined when it succeeded). */
export function errorOf(
	run: IRun,
	nodeName: string,
): (Error & { description?: string; context?: any; httpCode?: string }) | undefined {
	return run.data.resultData.runData[nodeName]?.[0]?.error as any;
}
