/* eslint-disable @typescript-eslint/no-require-imports */
// The package under test wired to a live sandbox: a real token grant, a crmOAuth2Api credential
// holding that token, every node of package.json "n8n".nodes registered, and a workflow runner.
import path from 'node:path';

import { LoadOptionsContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	IRun,
} from 'n8n-workflow';

import { CrmOAuth2Api, DEFAULT_SCOPES } from '../../credentials/CrmOAuth2Api.credentials';
import {
	TestCredentialsHelper,
	buildAdditionalData,
	buildWorkflow,
	ensureExpressionEngine,
	runWorkflow,
} from './n8n';
import { grantToken, startTestSandbox } from './sandbox';
import type { RunningSandbox, SandboxOptions, TokenResponse } from './sandbox';
import type { LoggedRequest } from '../../sandbox/types.ts';

export const PACKAGE = 'n8n-nodes-crm-service';
const ROOT = path.resolve(__dirname, '..', '..');

/** Every node listed in package.json, loaded from source: `n8n-nodes-crm-service.<name>` → instance. */
export function packageNodeTypes(): Record<string, INodeType> {
	const pkg = require(path.join(ROOT, 'package.json')) as { n8n: { nodes: string[] } };
	const types: Record<string, INodeType> = {};
	for (const built of pkg.n8n.nodes) {
		const source = path.join(ROOT, built.replace(/^dist\//, '').replace(/\.js$/, ''));
		const exported = require(source) as Record<string, new () => INodeType>;
		for (const NodeClass of Object.values(exported)) {
			const instance = new NodeClass();
			types[`${PACKAGE}.${instance.description.name}`] = instance;
		}
	}
	return types;
}

export interface CrmFixture {
	url: string;
	running: RunningSandbox;
	token: TokenResponse;
	helper: TestCredentialsHelper;
	credentialData: ICredentialDataDecryptedObject;
	nodeTypes: Record<string, INodeType>;
	/** a node of the package: `node('crmRecord', { resource, operation, ... })` */
	node(name: string, parameters: INode['parameters'], extra?: Partial<INode>): INode;
	/** runs a workflow of the given nodes; the first node gets `input` */
	run(
		nodes: INode[] | INode,
		input?: INodeExecutionData[],
		connections?: IConnections,
	): Promise<IRun>;
	/**
	 * a load-options method of a node (`methods.loadOptions[method]`) as the editor calls it: a
	 * LoadOptionsContext for `path`, the node's parameters as the current ones, an expression isolate held
	 */
	loadOptions(
		nodeName: string,
		method: string,
		parameters: INode['parameters'],
		path?: string,
	): Promise<INodePropertyOptions[]>;
	/** authenticated call straight to the sandbox API (for asserting state) */
	api(method: string, pathAndQuery: string, body?: unknown): Promise<{ status: number; body: any }>;
	/** every item of a paged list (`page` 1, 2, … at 200 per page until `more_records` is false); `[]` for 204 */
	listAll(pathAndQuery: string, key?: string): Promise<any[]>;
	/** authenticated GET of bytes (file, photo and attachment downloads) */
	download(pathAndQuery: string): Promise<{ status: number; headers: Headers; bytes: Buffer }>;
	/** a sandbox test hook under /__sandbox (`hook('GET', '/outbox')`) */
	hook(
		method: string,
		pathAndQuery: string,
		body?: unknown,
	): Promise<{ status: number; body: any }>;
	/** the API calls of the sandbox's request log, oldest first (GET /__sandbox/requests; the hooks' own calls left out) */
	requests(): Promise<LoggedRequest[]>;
	/** empties the request log (DELETE /__sandbox/requests) */
	clearRequests(): Promise<void>;
	close(): Promise<void>;
}

export interface FixtureOptions {
	scope?: string;
	variant?: 'v2' | 'v2.1';
	sandbox?: SandboxOptions;
}

export function credentialDataFor(
	url: string,
	token: TokenResponse,
	variant: 'v2' | 'v2.1',
	scope: string,
	/** the bulk-write upload host (§1.1); the API origin when absent */
	uploadUrl?: string,
): ICredentialDataDecryptedObject {
	return {
		...(uploadUrl ? { uploadUrl } : {}),
		clientId: 'test-client',
		clientSecret: 'test-secret',
		grantType: 'authorizationCode',
		accountsUrl: url,
		apiVariant: variant,
		authUrl: `${url}/oauth/v2/auth`,
		accessTokenUrl: `${url}/oauth/v2/token`,
		scope,
		authQueryParameters: 'access_type=offline&prompt=consent',
		authentication: 'body',
		oauthTokenData: token as unknown as ICredentialDataDecryptedObject,
	};
}

export async function crmFixture(options: FixtureOptions = {}): Promise<CrmFixture> {
	const running = await startTestSandbox(options.sandbox);
	const scope = options.scope ?? DEFAULT_SCOPES.join(',');
	const token = await grantToken(running.url, { scope });
	const credentialData = credentialDataFor(
		running.url,
		token,
		options.variant ?? 'v2.1',
		scope,
		running.uploadUrl,
	);
	const credentialType = new CrmOAuth2Api();
	const helper = new TestCredentialsHelper(
		{
			crmOAuth2Api: credentialType,
			oAuth2Api: { name: 'oAuth2Api', displayName: 'OAuth2', properties: [] },
		},
		{
			crmOAuth2Api: credentialData,
		},
	);
	const nodeTypes = packageNodeTypes();
	let counter = 0;
	/** a call with the credential's current access token */
	const authenticated = async (
		method: string,
		pathAndQuery: string,
		body?: unknown,
	): Promise<Response> => {
		const current = helper.store.crmOAuth2Api.oauthTokenData as unknown as TokenResponse;
		const send = async () =>
			await fetch(`${running.url}${pathAndQuery}`, {
				method,
				headers: {
					Authorization: `Bearer ${current.access_token}`,
					'Content-Type': 'application/json',
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		try {
			return await send();
		} catch (error) {
			// a pooled keep-alive socket the sandbox closed while the event loop was busy (loading
			// n8n under load): the request never reached the server, so send it once more
			if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
			return await send();
		}
	};
	const fixture: CrmFixture = {
		url: running.url,
		running,
		token,
		helper,
		credentialData,
		nodeTypes,
		node(name, parameters, extra = {}) {
			counter++;
			const type = `${PACKAGE}.${name}`;
			return {
				id: `node-${counter}`,
				name: extra.name ?? `CRM ${counter}`,
				type,
				typeVersion: 1,
				position: [counter * 200, 0],
				parameters,
				credentials: { crmOAuth2Api: { id: 'cred-1', name: 'CRM sandbox' } },
				...extra,
			};
		},
		async run(nodes, input, connections) {
			const list = Array.isArray(nodes) ? nodes : [nodes];
			return await runWorkflow({
				nodes: list,
				connections,
				input,
				nodeTypes,
				credentialTypes: { crmOAuth2Api: credentialType },
				credentialsHelper: helper,
			});
		},
		async loadOptions(nodeName, method, parameters, path = 'parameters.x') {
			const node = fixture.node(nodeName, parameters);
			const workflow = buildWorkflow({ nodes: [node], nodeTypes });
			const additionalData = buildAdditionalData({ credentialsHelper: helper });
			// what the editor sends with a load-options call: getCurrentNodeParameter reads it
			additionalData.currentNodeParameters = node.parameters;
			const ctx = new LoadOptionsContext(workflow, node, additionalData, path);
			const type = nodeTypes[`${PACKAGE}.${nodeName}`] as any;
			// n8n's DynamicNodeParametersService runs load options holding an isolate (withExpressionIsolate)
			await ensureExpressionEngine();
			return await workflow.expression.withIsolate(
				async () =>
					await type.methods.loadOptions[method].call(ctx as unknown as ILoadOptionsFunctions),
			);
		},
		async api(method, pathAndQuery, body) {
			const res = await authenticated(method, pathAndQuery, body);
			const text = await res.text();
			return { status: res.status, body: text ? JSON.parse(text) : undefined };
		},
		async listAll(pathAndQuery, key = 'data') {
			const items: any[] = [];
			for (let page = 1; ; page++) {
				const res = await fixture.api(
					'GET',
					`${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}per_page=200&page=${page}`,
				);
				if (res.status === 204) return items;
				if (res.status !== 200)
					throw new Error(
						`GET ${pathAndQuery} (page ${page}) answered ${res.status}: ${JSON.stringify(res.body)}`,
					);
				items.push(...res.body[key]);
				if (res.body.info?.more_records !== true) return items;
			}
		},
		async download(pathAndQuery) {
			const res = await authenticated('GET', pathAndQuery);
			return {
				status: res.status,
				headers: res.headers,
				bytes: Buffer.from(await res.arrayBuffer()),
			};
		},
		async hook(method, pathAndQuery, body) {
			const res = await fetch(`${running.url}/__sandbox${pathAndQuery}`, {
				method,
				headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await res.text();
			if (!res.ok)
				throw new Error(`${method} /__sandbox${pathAndQuery} answered ${res.status}: ${text}`);
			return { status: res.status, body: text ? JSON.parse(text) : undefined };
		},
		async requests() {
			const { body } = await fixture.hook('GET', '/requests');
			return (body as { requests: LoggedRequest[] }).requests.filter(
				(r) => !r.url.startsWith('/__sandbox/'),
			);
		},
		async clearRequests() {
			await fixture.hook('DELETE', '/requests');
		},
		async close() {
			await running.close();
		},
	};
	return fixture;
}

/**
 * The fixture for one test file or describe block: started in beforeAll, closed in afterAll. The
 * returned handle forwards to it once started (use it in hooks declared after this call, and in tests).
 */
export function useCrmFixture(options: FixtureOptions = {}): CrmFixture {
	let fixture: CrmFixture | undefined;
	beforeAll(async () => {
		fixture = await crmFixture(options);
	});
	afterAll(async () => {
		await fixture?.close();
	});
	const started = (): CrmFixture => {
		if (!fixture)
			throw new Error(
				'useCrmFixture: the fixture is not started yet (use it inside a hook or a test)',
			);
		return fixture;
	};
	return new Proxy({} as CrmFixture, {
		get: (_target, key) => Reflect.get(started(), key),
		set: (_target, key, value) => Reflect.set(started(), key, value),
		has: (_target, key) => Reflect.has(started(), key),
	});
}

/** The sandbox's bulk read jobs, oldest first, as GetBulkReadJobDetails renders them plus `callback` (GET /__sandbox/bulk/read). */
export async function bulkReadJobs(crm: CrmFixture): Promise<any[]> {
	return (await crm.hook('GET', '/bulk/read')).body.jobs;
}

/** The sandbox's bulk write jobs, oldest first, as GetBulkWriteJobDetails renders them (GET /__sandbox/bulk/write). */
export async function bulkWriteJobs(crm: CrmFixture): Promise<any[]> {
	return (await crm.hook('GET', '/bulk/write')).body.jobs;
}

/** How many `method url` calls the sandbox answered 429 TOO_MANY_REQUESTS (its request log, docs/protocol.md §7). */
export async function refusedCalls(crm: CrmFixture, method: string, url: string): Promise<number> {
	return (await crm.requests()).filter(
		(r) => r.method === method && r.url === url && r.status === 429,
	).length;
}
