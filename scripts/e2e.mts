// `npm run test:e2e`: the package in a real n8n editor, driven by a headless Chromium.
//
// Starts its own stack (scripts/start.mts: build, `npm pack`, the tarball installed into the fresh
// user folder .n8n-runtime/e2e-home the way the Community Nodes panel installs packages, sandbox in
// memory, n8n on 127.0.0.1:5690) and checks, as a person would:
//   1. sign-in, and the example workflows are listed;
//   2. Settings → Community Nodes lists n8n-nodes-crm-service with the packed version and its nodes;
//   3. the node panel finds every node of package.json "n8n".nodes when searching "CRM", as
//      `n8n-nodes-crm-service.<name>`;
//   4. CRM Record shows all its actions, resources and operations;
//   5. a fresh crmOAuth2Api credential asks for the service's Accounts URL (nothing local
//      prefilled), then connects through the OAuth2 "Connect" button against the sandbox's
//      authorize page (auto-approved, 302 to n8n's callback) and loads data;
//   6. an example workflow executes from the editor and its output shows in the UI;
//   7. (when the package has crmTrigger) the trigger example is published, a deal is changed in
//      the sandbox, and the execution appears;
//   then the AI agent's tool, a custom API call, every example, the first open in a loop, the
//   update mapper, the polling trigger, the trigger's events and the sandbox's own page (a deal's
//   stage changed there runs the trigger example), and the editor's setup experience: a fresh CRM
//   Record node lists its modules on first open, the field mapper waits for a module (multi-select
//   picklists, date-only fields), and bulk read conditions offer picklist values and an upper bound
//   only for Between.
// This file holds the run (options, stack and browser, the steps in order, results, exit code); each
// step lives in a module of scripts/e2e/ named for what it checks, with the editor helpers
// (editor.mts), the playwright types and Chromium (browser.mts) and the sandbox client
// (sandbox-api.mts) beside them.
// Screenshots go to test-results/e2e/; the ones of a green run are copied to docs/screenshots/.
//
//   npm run test:e2e [-- --no-build] [--keep-open] [--only 1,2,5]
// Env: E2E_N8N_PORT (5690), E2E_SANDBOX_PORT (4090), CHROMIUM_PATH (/usr/bin/chromium),
// E2E_ACTION_TIMEOUT (ms an action may wait for its element, 30000; more on a busy machine).
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { childEnv, PACKAGE_NAME, REPO, RUNTIME_DIR, runtimeRequire } from './n8n-runtime.mts';
import { N8nClient, startStack } from './start.mts';
import type { Stack } from './start.mts';
import { agentToolStep } from './e2e/agent-tool.mts';
import { CHROMIUM_ARGS, ensureChromium } from './e2e/browser.mts';
import type { Browser } from './e2e/browser.mts';
import { bulkConditionsStep } from './e2e/bulk-conditions.mts';
import { communityNodesStep } from './e2e/community-nodes.mts';
import { credentialConnectStep } from './e2e/credential-connect.mts';
import { customApiCallStep } from './e2e/custom-api-call.mts';
import { editorHelpers } from './e2e/editor.mts';
import type { EditorStepContext } from './e2e/editor.mts';
import { examplesStep } from './e2e/examples.mts';
import { firstOpenStep } from './e2e/first-open.mts';
import { nodePanelStep, recordActionsStep } from './e2e/node-panel.mts';
import { pollingTriggerStep } from './e2e/polling-trigger.mts';
import { recordMapperStep } from './e2e/record-mapper.mts';
import { SandboxApi } from './e2e/sandbox-api.mts';
import { sandboxPageStep } from './e2e/sandbox-page.mts';
import { signInStep } from './e2e/sign-in.mts';
import { syncExampleStep } from './e2e/sync-example.mts';
import { triggerEventsStep } from './e2e/trigger-events.mts';
import { triggerExampleStep } from './e2e/trigger-example.mts';
import { updateMapperStep } from './e2e/update-mapper.mts';

// E2E_RESULTS / E2E_HOME (with E2E_N8N_PORT / E2E_SANDBOX_PORT) let two runs share a checkout
const RESULTS_DIR = process.env.E2E_RESULTS ?? path.join(REPO, 'test-results', 'e2e');
const DOCS_DIR = path.join(REPO, 'docs', 'screenshots');
/** screenshot of a green run → file name under docs/screenshots/ */
const DOCS_SHOTS: Record<string, string> = {
	'02-community-nodes-installed.png': 'community-nodes-installed.png',
	'02-node-panel-search-crm.png': 'node-panel-search-crm.png',
	'03-crm-record-actions.png': 'crm-record-actions.png',
	'05-credential-new.png': 'credential-new-server.png',
	'05-credential-connected.png': 'credential-oauth2-connected.png',
	'06-get-many-deals-output.png': 'get-many-deals-output.png',
	'07-example-sync-deals-run.png': 'example-sync-deals-run.png',
	'08-example-sync-deals-output.png': 'example-sync-deals-output.png',
	'10-trigger-execution.png': 'trigger-deal-stage-execution.png',
	'11-module-list-first-open.png': 'crm-record-module-list.png',
	'12-mapper-list-and-date.png': 'crm-record-field-mapper.png',
	'13-bulk-condition-picklist.png': 'bulk-read-condition-picklist.png',
	'15-ai-agent-crm-tool-execution.png': 'ai-agent-crm-record-tool.png',
	'15-ai-agent-crm-tool-description.png': 'ai-agent-crm-tool-description.png',
	'16-http-request-crm-credential-type.png': 'http-request-crm-credential-type.png',
	'17-example-bulk-export-panel.png': 'example-bulk-export-panel.png',
	'20-first-open-record-list.png': 'first-open-module-list.png',
	'21-update-mapper-filled.png': 'crm-record-update-mapper.png',
	'11-node-panel-instant-or-polling.png': 'node-panel-instant-or-polling.png',
	'12-polling-trigger-execution.png': 'polling-trigger-execution.png',
	'17-crm-trigger-events-in-node-panel.png': 'crm-trigger-events-in-node-panel.png',
	'22-sandbox-deal-saved.png': 'sandbox-page-deal-stage.png',
	'22-sandbox-channel-deliveries.png': 'sandbox-page-deliveries.png',
};

const log = (msg: string) => console.log(`[e2e] ${msg}`);

interface Result {
	name: string;
	status: 'passed' | 'failed' | 'skipped';
	ms: number;
	error?: string;
}

async function main(): Promise<number> {
	const args = process.argv.slice(2);
	const only = args.includes('--only')
		? args[args.indexOf('--only') + 1].split(',').map(Number)
		: undefined;
	const keepOpen = args.includes('--keep-open');
	const started = Date.now();
	rmSync(RESULTS_DIR, { recursive: true, force: true });
	mkdirSync(RESULTS_DIR, { recursive: true });

	const executablePath = await ensureChromium(RESULTS_DIR, log);
	// Ctrl-C / SIGTERM at any point: close the browser, stop n8n and the sandbox
	const running: { browser?: Browser; stack?: Stack } = {};
	let aborting = false;
	const abort = (sig: string) => {
		if (aborting) return;
		aborting = true;
		log(`${sig}: stopping the browser, n8n and the sandbox…`);
		void (async () => {
			await running.browser?.close().catch(() => undefined);
			await running.stack?.stop();
			process.exit(130);
		})();
	};
	process.on('SIGINT', () => abort('SIGINT'));
	process.on('SIGTERM', () => abort('SIGTERM'));

	const stack: Stack = await startStack({
		port: Number(process.env.E2E_N8N_PORT ?? 5690),
		sandboxPort: Number(process.env.E2E_SANDBOX_PORT ?? 4090),
		home: process.env.E2E_HOME ?? path.join(RUNTIME_DIR, 'e2e-home'),
		sandboxDb: ':memory:',
		fresh: true,
		build: !args.includes('--no-build'),
		log: (m) => log(m),
	});
	running.stack = stack;
	log(
		`stack ready in ${Math.round((Date.now() - started) / 1000)} s: editor ${stack.editorUrl}, sandbox ${stack.sandboxUrl}`,
	);

	const { chromium } = runtimeRequire('playwright-core') as {
		chromium: { launch(o: Record<string, unknown>): Promise<Browser> };
	};
	const browser = await chromium.launch({
		executablePath,
		headless: true,
		args: CHROMIUM_ARGS,
		env: childEnv(),
		// signals are ours (abort above), not playwright's
		handleSIGINT: false,
		handleSIGTERM: false,
		handleSIGHUP: false,
	});
	running.browser = browser;
	const context = await browser.newContext({
		viewport: { width: 1440, height: 900 },
		baseURL: stack.editorUrl,
	});
	context.setDefaultTimeout(Number(process.env.E2E_ACTION_TIMEOUT ?? 30_000));
	// the editor's first load on a busy machine (several n8n instances, 2 cores) takes longer than an action
	context.setDefaultNavigationTimeout(120_000);
	const page = await context.newPage();
	const sandbox = new SandboxApi(stack.sandboxUrl);
	const api = new N8nClient(stack.editorUrl);
	await api.login(stack.owner.email, stack.owner.password);

	const results: Result[] = [];
	const shot = async (file: string) => {
		await page.screenshot({ path: path.join(RESULTS_DIR, file) });
		log(`  screenshot test-results/e2e/${file}`);
	};
	let stepNo = 0;
	const step = async (name: string, fn: () => Promise<void>, skipWhy?: string) => {
		stepNo++;
		const t = Date.now();
		// step 1 signs in: every other step needs it
		if (skipWhy || (only && stepNo > 1 && !only.includes(stepNo))) {
			results.push({ name, status: 'skipped', ms: 0, error: skipWhy });
			log(`- skipped ${stepNo}. ${name}${skipWhy ? `: ${skipWhy}` : ''}`);
			return;
		}
		log(`▶ ${stepNo}. ${name}`);
		try {
			await fn();
			results.push({ name, status: 'passed', ms: Date.now() - t });
			log(`✔ ${stepNo}. ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
		} catch (error) {
			const message =
				error instanceof Error ? error.message.split('\n').slice(0, 6).join('\n') : String(error);
			results.push({ name, status: 'failed', ms: Date.now() - t, error: message });
			log(`✘ ${stepNo}. ${name}: ${message}`);
			await page
				.screenshot({
					path: path.join(RESULTS_DIR, `failed-${String(stepNo).padStart(2, '0')}.png`),
				})
				.catch(() => undefined);
		}
	};
	const ctx: EditorStepContext = {
		page,
		context,
		stack,
		api,
		sandbox,
		step,
		shot,
		log,
		...editorHelpers(page),
	};

	const recordNode = stack.nodes.find((n) => n.name === 'crmRecord');
	const triggerNode = stack.nodes.find((n) => n.isTrigger);
	const syncExample = stack.workflows.find((w) => /Return All/i.test(w.name));
	const triggerExample = stack.workflows.find((w) => /trigger/i.test(w.name));

	const bulkNode = stack.nodes.find((n) => n.name === 'crmBulk');
	const has = (name: string) => stack.nodes.some((n) => n.name === name);
	const recordSkip = has('crmRecord') ? undefined : 'package has no crmRecord node';
	const pollingSkip = has('crmPollingTrigger')
		? undefined
		: 'package has no crmPollingTrigger node';
	const triggerSkip = has('crmTrigger') ? undefined : 'package has no crmTrigger node';

	try {
		await step('sign in and see the example workflows', async () => await signInStep(ctx));
		await step(
			`Settings → Community Nodes lists ${PACKAGE_NAME} v${stack.packageVersion}`,
			async () => await communityNodesStep(ctx),
		);
		await step(
			`node panel: searching "CRM" lists all ${stack.nodes.length} package nodes`,
			async () => await nodePanelStep(ctx),
		);
		await step(
			'CRM Record: actions, resources and operations',
			async () => await recordActionsStep(ctx, recordNode),
			recordNode ? undefined : 'package has no crmRecord node',
		);
		await step(
			'connect a new CRM OAuth2 credential with the "Connect" button, then load and execute',
			async () => await credentialConnectStep(ctx),
			recordNode ? undefined : 'package has no crmRecord node',
		);
		await step(
			`execute the example "${syncExample?.name}" from the editor and read its output`,
			async () => await syncExampleStep(ctx, syncExample),
			syncExample && recordNode ? undefined : 'no "Return All" example or no crmRecord node',
		);
		await step(
			'publish the deal-stage trigger example, change a deal in the sandbox, see the execution',
			async () => await triggerExampleStep(ctx, triggerExample),
			triggerNode && triggerExample
				? undefined
				: 'package has no trigger node (crmTrigger) yet, or no trigger example',
		);

		// the nodes as an AI agent's tool, the "Custom API Call", the examples and the first-time setup
		await step(
			'AI Agent uses CRM Record → Search as a tool (scripted OpenAI-compatible model)',
			async () => await agentToolStep(ctx),
			recordSkip,
		);
		await step(
			'a custom CRM API call: HTTP Request with the CRM credential type, no dead "custom API call" link',
			async () => await customApiCallStep(ctx),
			recordSkip,
		);
		await step(
			'every workflow of examples/ opens without warnings, runs from "Execute workflow" and does what it says',
			async () => await examplesStep(ctx),
			recordSkip,
		);
		await step(
			'first open, 10 fresh workflows: Manual Trigger → + → CRM Record / CRM Bulk action; the Module list loads, no "Error fetching options"',
			async () => await firstOpenStep(ctx),
			recordSkip,
		);
		await step(
			'Update with "Map Each Field Below": Leads → the Record ID box at once → fill → execute → the lead is changed',
			async () => await updateMapperStep(ctx),
			recordSkip,
		);
		await step(
			'CRM Polling Trigger: next to the CRM Trigger in the node panel; published, polls new leads into one execution, unpublished',
			async () => await pollingTriggerStep(ctx),
			pollingSkip,
		);
		await step(
			"the node panel lists the CRM Trigger's events as separate entries",
			async () => await triggerEventsStep(ctx),
			triggerSkip,
		);
		await step(
			"the sandbox page: the deal of the trigger example's sticky note gets another stage, n8n runs the trigger workflow",
			async () => await sandboxPageStep(ctx),
			triggerSkip,
		);

		// ---- what a no-code user sees when setting the nodes up ----
		await step(
			'editor: a fresh CRM Record node loads its Module list on first open; the field mapper waits for a module, then shows list and date fields',
			async () => await recordMapperStep(ctx, recordNode),
			recordNode ? undefined : 'package has no crmRecord node',
		);
		await step(
			'editor: bulk read conditions: picklist values in a dropdown, the upper bound only for Between',
			async () => await bulkConditionsStep(ctx, bulkNode),
			bulkNode ? undefined : 'package has no crmBulk node',
		);
	} finally {
		if (keepOpen) {
			log(
				`--keep-open: editor ${stack.editorUrl} (${stack.owner.email} / ${stack.owner.password}); Ctrl-C to stop`,
			);
			console.log(
				results.map((r) => `${r.status} ${r.name}${r.error ? `: ${r.error}` : ''}`).join('\n'),
			);
			await new Promise<void>(() => undefined); // until abort()
		}
		await browser.close().catch(() => undefined);
		await stack.stop();
	}

	const passed = results.filter((r) => r.status === 'passed').length;
	const failed = results.filter((r) => r.status === 'failed').length;
	const skipped = results.filter((r) => r.status === 'skipped').length;
	if (failed === 0 && !only) {
		mkdirSync(DOCS_DIR, { recursive: true });
		const copied: string[] = [];
		for (const [from, to] of Object.entries(DOCS_SHOTS)) {
			if (!existsSync(path.join(RESULTS_DIR, from))) continue;
			copyFileSync(path.join(RESULTS_DIR, from), path.join(DOCS_DIR, to));
			copied.push(to);
		}
		log(`copied ${copied.length} screenshots to docs/screenshots/: ${copied.join(', ')}`);
	}
	console.log('');
	for (const r of results)
		console.log(
			`${r.status === 'passed' ? '✔' : r.status === 'failed' ? '✘' : '-'} ${r.name}${r.error ? `\n    ${r.error.replace(/\n/g, '\n    ')}` : ''}`,
		);
	console.log(
		`\ne2e finished in ${Math.round((Date.now() - started) / 1000)} s; screenshots in test-results/e2e/`,
	);
	console.log(`e2e: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
	return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(
			`[e2e] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
		);
		console.log('e2e: 0 passed, 1 failed');
		process.exit(1);
	},
);
