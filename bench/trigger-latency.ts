/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console, @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports */
// `npm run bench:trigger`: CRM Trigger latency, record change → emitted items.
//
// A sandbox, the package's CRM Trigger activated in n8n's engine (HookContext checkExists/create),
// and a local receiver at the channel's notify_url that hands every delivery to the trigger's
// webhook() (WebhookContext), as n8n's webhook server does. Each change is one API call made after
// the previous change was emitted; latency = from sending the call to webhook() returning the items.
// Prints p50 and p95 over 200 changes (100 creates, then 100 edits) for both output modes.
//
// Runs on Node 24 without a build: the package's TypeScript is transpiled on require, as ts-jest does.
// CommonJS on purpose (no import/export): the package is not an ES module package, so this file
// type-checks as CommonJS and Node runs it as such.
const fs = require('node:fs') as typeof import('node:fs');
const Module = require('node:module') as typeof import('node:module');
const path = require('node:path') as typeof import('node:path');
const { performance } = require('node:perf_hooks') as typeof import('node:perf_hooks');

const CHANGES = Number(process.env.BENCH_CHANGES ?? 200);
const root = path.resolve(__dirname, '..');
const load = Module.createRequire(path.join(root, 'package.json'));

// ---- TypeScript on require (nodes, credentials, test harness, sandbox) --------------------------
const ts = load('typescript');
const extensions = (Module as any)._extensions as Record<string, (m: any, f: string) => void>;
const compileTs = (module: any, filename: string) => {
	const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		fileName: filename,
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: false },
	});
	module._compile(outputText, filename);
};
// `.ts` must come before `.json`: `require('…/CrmTrigger.node')` means the node, not its codex
const { '.json': jsonLoader, '.node': nativeLoader } = extensions;
delete extensions['.json'];
delete extensions['.node'];
extensions['.ts'] = compileTs;
extensions['.json'] = jsonLoader;
extensions['.node'] = nativeLoader;

load('./test/harness/env.ts');
const { crmFixture } = load('./test/harness/crm.ts');
const { triggerHarness } = load('./test/harness/n8n.ts');
const { startReceiver } = load('./test/harness/receiver.ts');

interface Stats {
	mode: string;
	samples: number[];
}

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return Number.NaN;
	const rank = Math.ceil((p / 100) * sorted.length) - 1;
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

async function measure(crm: any, receiver: any, mode: 'ids' | 'records', index: number, changes: number): Promise<Stats> {
	const trigger = crm.nodeTypes['n8n-nodes-crm-service.crmTrigger'];
	const node = crm.node('crmTrigger', { modules: ['Leads'], events: ['create', 'edit'], output: mode }, {
		name: 'CRM Trigger',
		webhookId: `be0c0000-0000-4000-8000-00000000000${index}`,
	});
	const t = triggerHarness({ nodeTypes: crm.nodeTypes, credentialsHelper: crm.helper }, node);
	t.additionalData.webhookBaseUrl = `${receiver.url}/webhook`;
	const hooks = trigger.webhookMethods.default;
	if (!(await hooks.checkExists.call(t.hookContext()))) await hooks.create.call(t.hookContext());

	const sentAt = new Map<string, number>();
	const emittedAt = new Map<string, number>();
	let waiting: { key: string; resolve: () => void } | undefined;
	receiver.respond = async (req: any) => {
		const { ctx, sent } = t.webhookContext({ body: req.body });
		const result = await trigger.webhook.call(ctx);
		const now = performance.now();
		for (const item of result.workflowData?.[0] ?? []) {
			const key = `${item.json.operation}:${item.json.id}`;
			emittedAt.set(key, now);
			if (mode === 'records' && !item.json.record) throw new Error(`no record fetched for ${key}`);
			if (waiting?.key === key) waiting.resolve();
		}
		return sent.status ?? 200;
	};
	const change = async (key: string, call: () => Promise<any>): Promise<any> => {
		const emitted = new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no items for ${key} within 10 s`)), 10_000);
			waiting = {
				key,
				resolve: () => {
					clearTimeout(timer);
					resolve();
				},
			};
		});
		sentAt.set(key, performance.now());
		const res = await call();
		if (key.startsWith('create:?')) {
			// the id is known only from the answer; re-key the pending wait
			const id = res.body.data[0].details.id;
			const real = `create:${id}`;
			sentAt.set(real, sentAt.get(key)!);
			sentAt.delete(key);
			waiting!.key = real;
			if (emittedAt.has(real)) waiting!.resolve();
		}
		await emitted;
		return res;
	};

	const creates = Math.ceil(changes / 2);
	const ids: string[] = [];
	for (let i = 0; i < creates; i++) {
		const res = await change('create:?', () => crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: `Bench ${mode} ${i}` }] }));
		ids.push(res.body.data[0].details.id);
	}
	for (let i = 0; i < changes - creates; i++) {
		const id = ids[i % ids.length];
		await change(`edit:${id}`, () => crm.api('PUT', `/crm/v2.1/Leads/${id}`, { data: [{ Company: `Edited ${i}` }] }));
	}
	await hooks.delete.call(t.hookContext());
	const samples = [...sentAt.entries()].map(([key, start]) => emittedAt.get(key)! - start).filter((v) => Number.isFinite(v));
	return { mode, samples };
}

async function main(): Promise<void> {
	const crm = await crmFixture({ sandbox: { demo: false } });
	const receiver = await startReceiver();
	try {
		// warm-up (discarded): JIT, connection pools, the first OAuth-signed calls
		await measure(crm, receiver, 'ids', 0, Number(process.env.BENCH_WARMUP ?? 20));
		const results: Stats[] = [];
		for (const [index, mode] of (['ids', 'records'] as const).entries()) {
			results.push(await measure(crm, receiver, mode, index + 1, CHANGES));
		}
		const fmt = (n: number) => n.toFixed(1).padStart(8);
		console.log(`CRM Trigger latency: record change (API call sent) → items emitted by webhook(); ${CHANGES} changes per mode`);
		console.log(`${'output'.padEnd(10)}${'changes'.padStart(8)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'min'.padStart(9)}${'max'.padStart(9)}${'mean'.padStart(9)}`);
		for (const { mode, samples } of results) {
			const sorted = [...samples].sort((a, b) => a - b);
			const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
			console.log(
				`${mode.padEnd(10)}${String(sorted.length).padStart(8)} ${fmt(percentile(sorted, 50))} ${fmt(percentile(sorted, 95))} ${fmt(sorted[0])} ${fmt(sorted[sorted.length - 1])} ${fmt(mean)}`,
			);
		}
	} finally {
		await receiver.close();
		await crm.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
