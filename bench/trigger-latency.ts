/* eslint-disable @typescript-eslint/no-require-imports */
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

const CHANGES = Number(process.env.BENCH_CHANGES ?? 200);
const root = path.resolve(__dirname, '..');
const load = Module.createRequire(path.join(root, 'package.json'));

// ---- TypeScript on require (nodes, credentials, test harness, sandbox) --------------------------
const ts = load('typescript');
const extensions = (Module as any)._extensions as Record<string, (m: any, f: string) => void>;
const compileTs = (module: any, filename: string) => {
	const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		fileName: filename,
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
			sourceMap: false,
		},
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
const { startReceiver } = load('./test/harness/receiver.ts');
// the measurement itself is shared with `npm run bench` (bench/run.bench.ts, P4)
const { measureTriggerLatency, percentile } = load(
	'./bench/lib/trigger.ts',
) as typeof import('./lib/trigger');

async function main(): Promise<void> {
	const crm = await crmFixture({ sandbox: { demo: false, apiLimits: { enabled: false } } });
	const receiver = await startReceiver();
	try {
		// warm-up (discarded): JIT, connection pools, the first OAuth-signed calls
		await measureTriggerLatency(crm, receiver, 'ids', 0, Number(process.env.BENCH_WARMUP ?? 20));
		const results = [];
		for (const [index, mode] of (['ids', 'records'] as const).entries()) {
			results.push(await measureTriggerLatency(crm, receiver, mode, index + 1, CHANGES));
		}
		const fmt = (n: number) => n.toFixed(1).padStart(8);
		console.log(
			`CRM Trigger latency: record change (API call sent) → items emitted by webhook(); ${CHANGES} changes per mode`,
		);
		console.log(
			`${'output'.padEnd(10)}${'changes'.padStart(8)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'min'.padStart(9)}${'max'.padStart(9)}${'mean'.padStart(9)}`,
		);
		for (const { mode, emitted } of results) {
			const sorted = [...emitted].sort((a, b) => a - b);
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
