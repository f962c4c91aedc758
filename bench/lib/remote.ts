// The package wired to a sandbox running in another process (bench/lib/sandbox-process.mts): the same
// credential, node registry and workflow runner as test/harness/crm.ts, with no sandbox in this process.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

import type { INode, INodeExecutionData, IRun } from 'n8n-workflow';

import { CrmOAuth2Api, DEFAULT_SCOPES } from '../../credentials/CrmOAuth2Api.credentials';
import { credentialDataFor, packageNodeTypes, PACKAGE } from '../../test/harness/crm';
import { TestCredentialsHelper, runWorkflow } from '../../test/harness/n8n';
import { grantToken } from '../../test/harness/sandbox';

export interface RemoteCrm {
	url: string;
	insertMs: number;
	node(name: string, parameters: INode['parameters']): INode;
	run(node: INode, input?: INodeExecutionData[]): Promise<IRun>;
	/** authenticated call straight to the sandbox: parsed JSON, or the bytes when `binary` */
	api(
		method: string,
		pathAndQuery: string,
		body?: unknown,
		binary?: boolean,
	): Promise<{ status: number; body: any }>;
	close(): Promise<void>;
}

export async function remoteCrm(contacts: number): Promise<RemoteCrm> {
	const child: ChildProcess = spawn(
		process.execPath,
		['--experimental-strip-types', '--no-warnings', path.join(__dirname, 'sandbox-process.mts')],
		{
			env: { ...process.env, BENCH_CONTACTS: String(contacts) },
			stdio: ['pipe', 'pipe', 'inherit'],
		},
	);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const ready = await new Promise<{ url: string; uploadUrl: string; insertMs: number }>(
		(resolve, reject) => {
			child.once('exit', (code) => reject(new Error(`sandbox process exited with ${code}`)));
			createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
		},
	);
	const scope = DEFAULT_SCOPES.join(',');
	const token = await grantToken(ready.url, { scope });
	const credentialType = new CrmOAuth2Api();
	const helper = new TestCredentialsHelper(
		{
			crmOAuth2Api: credentialType,
			oAuth2Api: { name: 'oAuth2Api', displayName: 'OAuth2', properties: [] },
		},
		{ crmOAuth2Api: credentialDataFor(ready.url, token, 'v2.1', scope, ready.uploadUrl) },
	);
	const nodeTypes = packageNodeTypes();
	let counter = 0;
	return {
		url: ready.url,
		insertMs: ready.insertMs,
		node(name, parameters) {
			counter++;
			return {
				id: `remote-${counter}`,
				name: `CRM remote ${counter}`,
				type: `${PACKAGE}.${name}`,
				typeVersion: 1,
				position: [counter * 200, 0],
				parameters,
				credentials: { crmOAuth2Api: { id: 'cred-1', name: 'CRM sandbox' } },
			};
		},
		async run(node, input) {
			return await runWorkflow({
				nodes: [node],
				input,
				nodeTypes,
				credentialTypes: { crmOAuth2Api: credentialType },
				credentialsHelper: helper,
			});
		},
		async api(method, pathAndQuery, body, binary = false) {
			const current = helper.store.crmOAuth2Api.oauthTokenData as unknown as {
				access_token: string;
			};
			const res = await fetch(`${ready.url}${pathAndQuery}`, {
				method,
				headers: {
					Authorization: `Bearer ${current.access_token}`,
					'Content-Type': 'application/json',
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			if (binary) return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
			const text = await res.text();
			return { status: res.status, body: text ? JSON.parse(text) : undefined };
		},
		async close() {
			child.stdin!.end();
			await exited;
		},
	};
}
