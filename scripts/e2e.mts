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
//   then the steps of scripts/e2e/ (among them the sandbox's own page: a deal's stage changed there
//   runs the trigger example), and the editor's setup experience: a fresh CRM Record node lists
//   its modules on first open, the field mapper waits for a module (multi-select picklists, date-only
//   fields), and bulk read conditions offer picklist values and an upper bound only for Between.
// Screenshots go to test-results/e2e/; the ones of a green run are copied to docs/screenshots/.
//
//   npm run test:e2e [-- --no-build] [--keep-open] [--only 1,2,5]
// Env: E2E_N8N_PORT (5690), E2E_SANDBOX_PORT (4090), CHROMIUM_PATH (/usr/bin/chromium),
// E2E_ACTION_TIMEOUT (ms an action may wait for its element, 30000; more on a busy machine).
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { childEnv, PACKAGE_NAME, REPO, RUNTIME_DIR, run, runtimeRequire } from './n8n-runtime.mts';
import { N8nClient, startStack } from './start.mts';
import type { PackageNode, Stack } from './start.mts';

// ---- minimal playwright-core types (the package lives in .n8n-runtime, not in node_modules) ----
interface Locator {
	click(o?: { timeout?: number }): Promise<void>;
	dblclick(o?: { timeout?: number }): Promise<void>;
	fill(v: string): Promise<void>;
	press(k: string): Promise<void>;
	first(): Locator;
	nth(i: number): Locator;
	count(): Promise<number>;
	filter(o: { has?: Locator; hasText?: string | RegExp }): Locator;
	locator(s: string, o?: { hasText?: string | RegExp }): Locator;
	getByRole(role: string, o?: { name?: string | RegExp; exact?: boolean }): Locator;
	getByText(t: string | RegExp, o?: { exact?: boolean }): Locator;
	waitFor(o?: {
		state?: 'visible' | 'hidden' | 'attached' | 'detached';
		timeout?: number;
	}): Promise<void>;
	innerText(): Promise<string>;
	allInnerTexts(): Promise<string[]>;
	isVisible(): Promise<boolean>;
	inputValue(): Promise<string>;
	getAttribute(name: string): Promise<string | null>;
	scrollIntoViewIfNeeded(): Promise<void>;
}
interface Page extends Pick<Locator, 'locator' | 'getByRole' | 'getByText'> {
	goto(url: string): Promise<unknown>;
	waitForURL(u: RegExp | ((url: URL) => boolean), o?: { timeout?: number }): Promise<void>;
	waitForTimeout(ms: number): Promise<void>;
	screenshot(o: { path: string; fullPage?: boolean }): Promise<unknown>;
	waitForEvent(e: string, o?: { timeout?: number }): Promise<unknown>;
	on(e: string, cb: (...a: unknown[]) => void): void;
	url(): string;
	keyboard: { press(k: string): Promise<void> };
}
interface BrowserContext {
	newPage(): Promise<Page>;
	waitForEvent(e: 'page', o?: { timeout?: number }): Promise<Page>;
	setDefaultTimeout(ms: number): void;
	setDefaultNavigationTimeout(ms: number): void;
}
interface Browser {
	newContext(o: Record<string, unknown>): Promise<BrowserContext>;
	close(): Promise<void>;
}

// E2E_RESULTS / E2E_HOME (with E2E_N8N_PORT / E2E_SANDBOX_PORT) let two runs share a checkout
const RESULTS_DIR = process.env.E2E_RESULTS ?? path.join(REPO, 'test-results', 'e2e');
const DOCS_DIR = path.join(REPO, 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (msg: string) => console.log(`[e2e] ${msg}`);

function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

async function ensureChromium(): Promise<string> {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	if (process.getuid?.() !== 0)
		throw new Error(
			`${CHROMIUM} is missing; install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
		);
	const logFile = path.join(RESULTS_DIR, 'apt-chromium.log');
	log(`installing Debian chromium (apt-get, log ${path.relative(REPO, logFile)})…`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await run('apt-get', ['update'], { cwd: REPO, logFile, env });
	await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
		cwd: REPO,
		logFile,
		env,
	});
	assert(existsSync(CHROMIUM), `apt-get installed chromium but ${CHROMIUM} does not exist`);
	return CHROMIUM;
}

// ---- sandbox helpers (test hooks and a token of its own, to look and to change records) ----
class SandboxApi {
	private token = '';
	private readonly url: string;
	constructor(url: string) {
		this.url = url;
	}
	async call<T = Record<string, unknown>>(
		method: string,
		p: string,
		body?: unknown,
	): Promise<{ status: number; body: T }> {
		if (!this.token && !p.startsWith('/__sandbox')) {
			const minted = await this.call<{ access_token: string }>('POST', '/__sandbox/tokens', {
				scope: 'CRM.modules.ALL,CRM.notifications.ALL,CRM.settings.ALL',
			});
			this.token = minted.body.access_token;
		}
		const res = await fetch(new URL(p, this.url), {
			method,
			headers: {
				'Content-Type': 'application/json',
				...(this.token && !p.startsWith('/__sandbox')
					? { Authorization: `Bearer ${this.token}` }
					: {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
	}
	async allRecords(module: string): Promise<Array<Record<string, unknown>>> {
		const all: Array<Record<string, unknown>> = [];
		for (let page = 1; ; page++) {
			const res = await this.call<{
				data?: Array<Record<string, unknown>>;
				info?: { more_records?: boolean };
			}>('GET', `/crm/v2.1/${module}?per_page=200&page=${page}`);
			all.push(...(res.body.data ?? []));
			if (!res.body.info?.more_records) return all;
		}
	}
}

// ---- expectations derived from the node descriptions ----
type Prop = Record<string, unknown> & {
	name?: string;
	options?: Array<Record<string, unknown>>;
	displayOptions?: { show?: Record<string, unknown[]> };
};

function resourcesOf(node: PackageNode): string[] {
	const resource = (node.properties as Prop[]).find((p) => p.name === 'resource');
	return (resource?.options ?? []).map((o) => String(o.name));
}

function actionsOf(node: PackageNode): string[] {
	const actions: string[] = [];
	for (const p of node.properties as Prop[]) {
		if (p.name !== 'operation') continue;
		for (const o of p.options ?? []) actions.push(String(o.action ?? o.name));
	}
	return [...new Set(actions)];
}

function operationsOf(node: PackageNode, resourceValue: string): string[] {
	const ops = (node.properties as Prop[]).find(
		(p) =>
			p.name === 'operation' &&
			(!p.displayOptions?.show?.resource || p.displayOptions.show.resource.includes(resourceValue)),
	);
	return (ops?.options ?? []).map((o) => String(o.name));
}

// ---- the test run ----
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

	const executablePath = await ensureChromium();
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
	const closeNdv = async () => {
		const close = page.locator('[data-test-id="ndv-close-button"]');
		if (await close.isVisible().catch(() => false)) await close.click();
	};
	const dropdownItems = () => page.locator('.el-select-dropdown__item:visible');
	/**
	 * Opens an options parameter of the open node panel and lists its option names, once the option
	 * `known` shows (the list of a dropdown closed just before may still be fading out).
	 */
	const listOptions = async (parameter: string, known: string) => {
		await page.locator(`[data-test-id="parameter-input-${parameter}"]`).click();
		await dropdownItems()
			.filter({ has: page.getByText(known, { exact: true }) })
			.first()
			.waitFor();
		await page.waitForTimeout(500);
		return (await dropdownItems().allInnerTexts()).map((t) => t.split('\n')[0].trim());
	};
	/**
	 * Clicks `opener` (a dropdown of the open node panel) and picks the option shown as `text`; a list
	 * still loading may not open on the first click, so up to three tries.
	 */
	const pickOption = async (opener: Locator, text: string) => {
		const item = dropdownItems()
			.filter({ has: page.getByText(text, { exact: true }) })
			.first();
		for (let attempt = 1; ; attempt++) {
			await opener.click();
			try {
				await item.waitFor({ timeout: 10_000 });
				await item.click();
				return;
			} catch (error) {
				if (attempt === 3) throw error;
				await page.locator('[data-test-id="tab-params"]').click(); // closes the dropdown, keeps the panel
			}
		}
	};
	/** opens an options parameter of the open node panel and picks the option shown as `text` */
	const choose = async (parameter: string, text: string) =>
		await pickOption(page.locator(`[data-test-id="parameter-input-${parameter}"]`), text);
	/** the Module picker's list (a resource locator: it loads when opened), once `known` shows; its entries */
	const moduleItems = async (known: string) => {
		const items = page.locator('[data-test-id="rlc-item"]');
		const item = items.filter({ has: page.getByText(known, { exact: true }) }).first();
		for (let attempt = 1; ; attempt++) {
			await page
				.locator('[data-test-id="parameter-input-module"] [data-test-id="rlc-input"]')
				.first()
				.click();
			try {
				await item.waitFor({ timeout: 15_000 });
				return { item, names: (await items.allInnerTexts()).map((t) => t.split('\n')[0].trim()) };
			} catch (error) {
				if (attempt === 3) throw error;
				await page.locator('[data-test-id="tab-params"]').click();
			}
		}
	};
	/** picks the module shown as `text` in the Module picker */
	const chooseModule = async (text: string) => await (await moduleItems(text)).item.click();

	const recordNode = stack.nodes.find((n) => n.name === 'crmRecord');
	const triggerNode = stack.nodes.find((n) => n.isTrigger);
	const syncExample = stack.workflows.find((w) => /Return All/i.test(w.name));
	const triggerExample = stack.workflows.find((w) => /trigger/i.test(w.name));

	try {
		await step('sign in and see the example workflows', async () => {
			await page.goto('/signin');
			await page.locator('input[name="emailOrLdapLoginId"]').fill(stack.owner.email);
			await page.locator('input[name="password"]').fill(stack.owner.password);
			await page.locator('[data-test-id="form-submit-button"]').click();
			await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
			for (const w of stack.workflows)
				await page.getByText(w.name, { exact: true }).first().waitFor();
			await shot('01-signed-in-workflows.png');
		});

		await step(
			`Settings → Community Nodes lists ${PACKAGE_NAME} v${stack.packageVersion}`,
			async () => {
				// what n8n itself reports: installed version, and whether its nodes loaded
				const listed = await api.request<
					Array<{
						packageName: string;
						installedVersion: string;
						failedLoading?: boolean;
						installedNodes: Array<{ name: string; type: string }>;
					}>
				>('GET', '/rest/community-packages');
				const pkg = Array.isArray(listed.data)
					? listed.data.find((p) => p.packageName === PACKAGE_NAME)
					: undefined;
				assert(
					pkg,
					`GET /rest/community-packages does not list ${PACKAGE_NAME}: ${listed.status} ${JSON.stringify(listed.data).slice(0, 300)}`,
				);
				assert(
					pkg.installedVersion === stack.packageVersion,
					`installed version ${pkg.installedVersion}, packed ${stack.packageVersion}`,
				);
				assert(pkg.failedLoading !== true, `n8n reports that ${PACKAGE_NAME} failed to load`);
				const types = pkg.installedNodes.map((n) => n.type).sort();
				assert(
					JSON.stringify(types) === JSON.stringify(stack.nodes.map((n) => n.type).sort()),
					`installed node types ${JSON.stringify(types)}`,
				);
				// and what the settings page shows
				await page.goto('/settings/community-nodes');
				const card = page
					.locator('[data-test-id="community-package-card"]')
					.filter({ hasText: PACKAGE_NAME })
					.first();
				await card.waitFor({ timeout: 30_000 });
				await card.getByText(`v${stack.packageVersion}`).first().waitFor();
				const text = await card.innerText();
				const missing = stack.nodes
					.filter((n) => !text.includes(n.displayName))
					.map((n) => n.displayName);
				await shot('02-community-nodes-installed.png');
				assert(missing.length === 0, `nodes missing from the package card: ${missing.join(', ')}`);
			},
		);

		await step(
			`node panel: searching "CRM" lists all ${stack.nodes.length} package nodes`,
			async () => {
				await page.goto('/workflow/new');
				await page.locator('[data-test-id="canvas-plus-button"]').click();
				await page.locator('[data-test-id="node-creator-search-bar"]').fill('CRM');
				const missing: string[] = [];
				for (const node of stack.nodes) {
					// each entry carries its node type; a trigger is listed under its app name ("CRM Trigger" → "CRM")
					const item = page
						.locator(`[data-test-id="item-iterator-item"][data-keyboard-nav-id^="${node.type}-"]`)
						.first();
					const names = [node.displayName, node.displayName.replace(/ Trigger$/, '')];
					const found = await item.waitFor({ timeout: 15_000 }).then(
						() => true,
						() => false,
					);
					const shown = found
						? (await item.locator('[data-test-id="node-creator-item-name"]').innerText()).trim()
						: '';
					const text = found ? await item.innerText() : '';
					if (!names.includes(shown) || !text.includes(node.description))
						missing.push(`${node.displayName} (${node.type}; shown ${JSON.stringify(shown)})`);
				}
				await shot('02-node-panel-search-crm.png');
				assert(missing.length === 0, `not in the node panel: ${missing.join(', ')}`);
			},
		);

		await step(
			'CRM Record: actions, resources and operations',
			async () => {
				const node = recordNode!;
				await page
					.locator('[data-test-id="node-creator-item-name"]', { hasText: /^CRM Record$/ })
					.click();
				await page.getByText('Get many records', { exact: true }).first().waitFor();
				// the list renders lazily: scroll towards its end, collecting names on the way, until every
				// expected action was seen (a loaded machine renders slowly: no "nothing new" cut-off)
				const names = page.locator('[data-test-id="node-creator-item-name"]');
				const shown = new Set<string>();
				const expected = actionsOf(node);
				for (
					const deadline = Date.now() + 60_000;
					expected.some((a) => !shown.has(a)) && Date.now() < deadline;

				) {
					for (const t of await names.allInnerTexts()) shown.add(t.trim());
					// the virtual list re-renders while it scrolls: an element counted a moment ago may be
					// gone, so ask for whatever is last now, briefly, and go round again if it moved
					await names
						.last()
						.scrollIntoViewIfNeeded({ timeout: 2_000 })
						.catch(() => undefined);
					await page.waitForTimeout(300);
				}
				await page
					.locator('[data-test-id="node-creator-item-name"]')
					.first()
					.scrollIntoViewIfNeeded();
				const missing = expected.filter((a) => !shown.has(a));
				await shot('03-crm-record-actions.png');
				assert(missing.length === 0, `actions missing from the panel: ${missing.join(', ')}`);
				log(`  ${expected.length} actions shown`);

				await page.getByText('Get many records', { exact: true }).first().click();
				await page.locator('[data-test-id="ndv"]').waitFor();
				const resources = await listOptions('resource', 'Record');
				await shot('04-crm-record-resources.png');
				const expectedResources = resourcesOf(node);
				const missingResources = expectedResources.filter((r) => !resources.includes(r));
				assert(
					missingResources.length === 0,
					`resources missing from the Resource list: ${missingResources.join(', ')}`,
				);
				await dropdownItems()
					.filter({ hasText: /^Record/ })
					.first()
					.click();

				const ops = await listOptions('operation', 'Get Many');
				const missingOps = operationsOf(node, 'record').filter((o) => !ops.includes(o));
				assert(missingOps.length === 0, `operations missing for Record: ${missingOps.join(', ')}`);
				await dropdownItems()
					.filter({ has: page.getByText('Get Many', { exact: true }) })
					.first()
					.click();
				log(`  ${expectedResources.length} resources, ${ops.length} record operations shown`);
			},
			recordNode ? undefined : 'package has no crmRecord node',
		);

		await step(
			'connect a new CRM OAuth2 credential with the "Connect" button, then load and execute',
			async () => {
				if (!(await page.locator('[data-test-id="ndv"]').isVisible())) {
					throw new Error('needs the CRM Record panel of the previous step');
				}
				await sandbox.call('DELETE', '/__sandbox/requests');
				await page.locator('[data-test-id="node-credentials-select"]').click();
				await page.locator('[data-test-id="node-credentials-select-item-new"]').click();
				const modal = page.locator('[data-test-id="editCredential-modal"]');
				await modal.waitFor();
				await modal.locator('[data-test-id="credential-name"]').click();
				await modal
					.locator('[data-test-id="credential-name"] input')
					.fill('CRM sandbox (connected in the browser)');
				await modal.locator('[data-test-id="credential-name"] input').press('Enter');
				// the form reads top to bottom in the order a person decides: Server, its URL, then the client
				const order = await modal
					.evaluate((root) =>
						[...root.querySelectorAll('[data-test-id]')]
							.map((e) => e.getAttribute('data-test-id'))
							.filter((id) =>
								[
									'environment',
									'accountsUrl',
									'crmClientId',
									'crmClientSecret',
									'apiVariant',
									'crmScope',
									'clientId',
									'clientSecret',
									'scope',
								].includes(id ?? ''),
							),
					)
					.then((ids) => ids.filter((id, i) => ids.indexOf(id) === i));
				assert(
					order.join(' → ') ===
						'environment → accountsUrl → crmClientId → crmClientSecret → apiVariant → crmScope',
					`the credential form's fields are in the order ${order.join(' → ')}`,
				);
				await modal.locator('[data-test-id="crmClientId"] input').fill('e2e-browser-client');
				await modal.locator('[data-test-id="crmClientSecret"] input').fill('e2e-browser-secret');
				// as installed from the registry: the service's accounts server is asked for, nothing local is prefilled
				const accountsUrl = modal.locator('[data-test-id="accountsUrl"] input');
				const prefilled = await accountsUrl.inputValue();
				const placeholder = (await accountsUrl.getAttribute('placeholder')) ?? '';
				assert(
					prefilled === '' && /^https:\/\//.test(placeholder),
					`a new credential's Accounts URL is ${JSON.stringify(prefilled)} (placeholder ${JSON.stringify(placeholder)})`,
				);
				await accountsUrl.scrollIntoViewIfNeeded();
				await shot('05-credential-new.png');
				// the sandbox plays the CRM service here
				await accountsUrl.fill(stack.sandboxUrl);
				const popupPromise = context.waitForEvent('page', { timeout: 30_000 });
				await modal
					.locator('[data-test-id="oauth-not-connected-banner"]')
					.getByRole('button', { name: /connect/i })
					.first()
					.click();
				const popup = await popupPromise;
				// sandbox authorize page → 302 → n8n's callback, which exchanges the code and closes the window
				await popup.waitForEvent('close', { timeout: 30_000 });
				// the editor closes the dialog of a new credential once connected; reopen it to see the state
				await modal.waitFor({ state: 'hidden', timeout: 15_000 }).catch(() => undefined);
				if (!(await modal.isVisible()))
					await page.locator('[data-test-id="credential-edit-button"]').click();
				await modal.getByText('Account connected').waitFor();
				await shot('05-credential-connected.png');
				const requests = (
					await sandbox.call<{ requests: Array<{ method: string; url: string; status: number }> }>(
						'GET',
						'/__sandbox/requests',
					)
				).body.requests;
				const authorize = requests.find(
					(r) =>
						r.url.startsWith('/oauth/v2/auth') && r.url.includes('client_id=e2e-browser-client'),
				);
				const token = requests.find(
					(r) => r.method === 'POST' && r.url.startsWith('/oauth/v2/token'),
				);
				assert(
					authorize?.status === 302,
					`the sandbox saw no authorize request from the browser (${JSON.stringify(requests.slice(0, 5))})`,
				);
				assert(
					token?.status === 200,
					'n8n did not exchange the code at the sandbox token endpoint',
				);
				await modal.locator('button[aria-label="Close this dialog"]').click();
				await modal.waitFor({ state: 'hidden' });
				// the module list was fetched while the credential had no token yet: reopen the node to reload it
				await closeNdv();
				await page
					.locator('[data-test-id="canvas-node"][data-node-name="Get many records"]')
					.dblclick();
				await page.locator('[data-test-id="ndv"]').waitFor();

				// the new credential works: module list from the CRM, then Execute step
				await chooseModule('Deals');
				await page.locator('[data-test-id="node-execute-button"]').click();
				const firstDeal = (
					await sandbox.call<{ data: Array<{ Deal_Name: string }> }>(
						'GET',
						'/crm/v2.1/Deals?per_page=1',
					)
				).body.data[0];
				await page
					.locator('[data-test-id="output-panel"]')
					.getByText(firstDeal.Deal_Name)
					.first()
					.waitFor({ timeout: 60_000 });
				await shot('06-get-many-deals-output.png');
				await closeNdv();
			},
			recordNode ? undefined : 'package has no crmRecord node',
		);

		await step(
			`execute the example "${syncExample?.name}" from the editor and read its output`,
			async () => {
				const deals = await sandbox.allRecords('Deals');
				await page.goto(`/workflow/${syncExample!.id}`);
				await page.locator('[data-test-id="canvas-node"]').first().waitFor();
				await page.locator('[data-test-id="execute-workflow-button"]').click();
				await page.getByText('Workflow executed successfully').first().waitFor({ timeout: 90_000 });
				// the edge labels fill in a moment after the success toast
				const expected = `${deals.length} items`;
				let labels: string[] = [];
				for (const until = Date.now() + 15_000; Date.now() < until; await sleep(250)) {
					labels = (await page.locator('[data-test-id="edge-label"]').allInnerTexts()).map((t) =>
						t.trim(),
					);
					if (labels.includes(expected)) break;
				}
				await shot('07-example-sync-deals-run.png');
				assert(
					labels.includes(expected),
					`expected "${expected}" (all deals) on an edge, saw ${JSON.stringify(labels)}`,
				);
				await page
					.locator('[data-test-id="canvas-node"][data-node-name="Get all deals"]')
					.dblclick();
				const output = page.locator('[data-test-id="output-panel"]');
				await output.getByText(`${deals.length} items`).first().waitFor();
				const anyDeal = new RegExp(
					deals.map((d) => String(d.Deal_Name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
				);
				await output.getByText(anyDeal).first().waitFor();
				await shot('08-example-sync-deals-output.png');
				await closeNdv();
			},
			syncExample && recordNode ? undefined : 'no "Return All" example or no crmRecord node',
		);

		await step(
			'publish the deal-stage trigger example, change a deal in the sandbox, see the execution',
			async () => {
				const id = triggerExample!.id;
				await page.goto(`/workflow/${id}`);
				await page.locator('[data-test-id="canvas-node"]').first().waitFor();
				await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
				await page.locator('[data-test-id="workflow-publish-button"]').click();
				const gotIt = page.getByRole('button', { name: 'Got it' });
				await gotIt.waitFor({ timeout: 60_000 });
				await shot('09-trigger-published.png');
				await gotIt.click();
				const deadline = Date.now() + 60_000;
				for (;;) {
					const wf = await api.request<{ active?: boolean }>('GET', `/rest/workflows/${id}`);
					if (wf.data.active) break;
					assert(Date.now() < deadline, 'the workflow did not become active after Publish');
					await sleep(500);
				}
				// n8n registers the webhook (→ the trigger subscribes a watch channel) right after publishing
				const channelDeadline = Date.now() + 60_000;
				for (;;) {
					const watch = await sandbox.call<{ watch?: Array<{ notify_url: string }> }>(
						'GET',
						'/crm/v2.1/actions/watch',
					);
					if (
						(watch.body.watch ?? []).some((w) =>
							w.notify_url.startsWith(`${stack.editorUrl}/webhook/`),
						)
					)
						break;
					assert(
						Date.now() < channelDeadline,
						`no watch channel points at n8n 60 s after publishing: ${JSON.stringify(watch.body)}`,
					);
					await sleep(1000);
				}

				const deal = (await sandbox.allRecords('Deals')).find(
					(d) => d.Pipeline !== 'Enterprise' && !String(d.Stage).startsWith('Closed'),
				);
				assert(deal, 'no open deal outside the blueprint in the sandbox');
				const newStage =
					deal.Stage === 'Negotiation/Review' ? 'Proposal/Price Quote' : 'Negotiation/Review';
				const upd = await sandbox.call<{ data: Array<{ code: string }> }>(
					'PUT',
					'/crm/v2.1/Deals',
					{ data: [{ id: deal.id, Stage: newStage }] },
				);
				assert(
					upd.body.data?.[0]?.code === 'SUCCESS',
					`stage change refused by the sandbox: ${JSON.stringify(upd.body)}`,
				);
				log(`  moved deal "${String(deal.Deal_Name)}" from ${String(deal.Stage)} to ${newStage}`);

				type Exec = { id: string; status: string; mode: string };
				let execution: Exec | undefined;
				const until = Date.now() + 60_000;
				while (!execution && Date.now() < until) {
					const list = await api.request<{ results?: Exec[] }>(
						'GET',
						`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: id }))}`,
					);
					execution = (list.data.results ?? []).find((e) => e.status === 'success');
					if (!execution) await sleep(1000);
				}
				assert(
					execution,
					'no successful execution of the trigger workflow within 60 s of the change',
				);
				await page.locator('[data-test-id="radio-button-executions"]').click();
				await page.waitForURL(/\/executions/);
				await page
					.getByText(newStage)
					.first()
					.waitFor({ timeout: 30_000 })
					.catch(() => undefined);
				await page.waitForTimeout(1500);
				await shot('10-trigger-execution.png');
				const detail = await api.request<{ data?: string }>(
					'GET',
					`/rest/executions/${execution.id}`,
				);
				assert(
					String(detail.data?.data ?? '').includes(newStage),
					`the execution data does not carry the new stage "${newStage}"`,
				);
			},
			triggerNode && triggerExample
				? undefined
				: 'package has no trigger node (crmTrigger) yet, or no trigger example',
		);

		// the nodes as an AI agent's tool, and the "Custom API Call" (scripts/e2e/)
		await (
			await import('./e2e/index.mts')
		).toolSteps({ page, stack, api, sandbox, step, shot, log, choose });

		// ---- what a no-code user sees when setting the nodes up ----
		/** new workflow → the node panel → `nodeName` → the action `action`; its panel opens */
		const addNode = async (nodeName: string, action: string) => {
			await page.goto('/workflow/new');
			await page.locator('[data-test-id="canvas-plus-button"]').click();
			await page.locator('[data-test-id="node-creator-search-bar"]').fill(nodeName);
			await page
				.locator('[data-test-id="node-creator-item-name"]', {
					hasText: new RegExp(`^${nodeName}$`),
				})
				.first()
				.click();
			await page.getByText(action, { exact: true }).first().click();
			await page.locator('[data-test-id="ndv"]').waitFor();
		};
		const visible = async (selector: string) =>
			(await page.locator(selector).count()) > 0 &&
			(await page.locator(selector).first().isVisible());
		/** the action of an operation of a node, as the node panel lists it */
		const actionOf = (node: PackageNode | undefined, resource: string, operation: string) => {
			const ops = (node?.properties as Prop[] | undefined)?.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
			);
			const option = ops?.options?.find((o) => o.value === operation);
			return String(option?.action ?? option?.name ?? '');
		};
		const bulkNode = stack.nodes.find((n) => n.name === 'crmBulk');

		await step(
			'editor: a fresh CRM Record node loads its Module list on first open; the field mapper waits for a module, then shows list and date fields',
			async () => {
				await addNode('CRM Record', actionOf(recordNode, 'record', 'create'));
				// a credential exists: the editor picks it for the new node
				const credential = await page
					.locator('[data-test-id="node-credentials-select"] input')
					.first()
					.inputValue();
				assert(credential !== '', 'no credential was selected for the new node');
				// nothing about fields before a module is chosen, and one mode selector
				await page.locator('[data-test-id="parameter-input-fieldsMode"]').waitFor();
				await page.waitForTimeout(1500);
				const panel = page.locator('[data-test-id="ndv"]');
				assert(
					!(await panel
						.getByText('No writable fields found')
						.first()
						.isVisible()
						.catch(() => false)),
					'"No writable fields found" shows before a module is chosen',
				);
				assert(
					!(await visible('[data-test-id="resource-mapper-container"]')),
					'the field mapper shows before a module is chosen',
				);
				assert(
					!(await panel
						.getByText('Mapping Column Mode')
						.first()
						.isVisible()
						.catch(() => false)),
					'a second mode selector ("Mapping Column Mode") shows',
				);
				// the module list, first open, no reopening of the node
				const { item: leads, names: modules } = await moduleItems('Leads');
				await page.waitForTimeout(500);
				await shot('11-module-list-first-open.png');
				assert(
					modules.includes('Leads') && modules.includes('Contacts'),
					`Module list on first open: ${JSON.stringify(modules.slice(0, 10))}`,
				);
				assert(
					!(await page
						.getByText(/Error fetching options/)
						.first()
						.isVisible()
						.catch(() => false)),
					'the Module list shows "Error fetching options"',
				);
				// an entry shows its plural label once
				const leadsText = (await leads.innerText()).trim();
				assert(leadsText === 'Leads', `the Leads entry reads ${JSON.stringify(leadsText)}`);
				await leads.click();

				// the mapper loads the module's fields: a multi-select picklist and a date-only field
				const mapper = page.locator('[data-test-id="resource-mapper-container"]');
				await mapper.waitFor();
				await mapper.getByText('Last Name').first().waitFor();
				for (const label of ['Interests (Comma-Separated)', 'Last Contacted Date (yyyy-MM-dd)']) {
					await page.locator('[data-test-id="add-fields-select"] button').first().click();
					await page.getByRole('menuitem', { name: label, exact: true }).first().click();
				}
				await mapper
					.getByText('Last Contacted Date (yyyy-MM-dd)', { exact: true })
					.first()
					.waitFor();
				// n8n 2.40.7's mapper keeps only text, number and boolean values: a list is typed comma-separated
				const interests = mapper
					.locator('[data-test-id="parameter-input-Interests"] input')
					.first();
				await interests.fill('CRM, Support');
				assert(
					(await interests.inputValue()) === 'CRM, Support',
					'Interests does not take comma-separated values',
				);
				// a date-only field is a text input for yyyy-MM-dd, not a date-and-time picker
				const dateInput = mapper
					.locator('[data-test-id="parameter-input-Last_Contacted_Date"] input')
					.first();
				await dateInput.fill('2026-03-01');
				assert(
					(await dateInput.inputValue()) === '2026-03-01',
					'the date-only field does not take a plain date',
				);
				await shot('12-mapper-list-and-date.png');
				await closeNdv();
			},
			recordNode ? undefined : 'package has no crmRecord node',
		);

		await step(
			'editor: bulk read conditions: picklist values in a dropdown, the upper bound only for Between',
			async () => {
				await addNode('CRM Bulk', actionOf(bulkNode, 'bulkRead', 'create'));
				await chooseModule('Leads');
				await choose('filterType', 'Build Conditions');
				await page.getByRole('button', { name: 'Add Condition' }).first().click();
				// "parameter-input-field" is also the test id of every text input: take the parameter's container
				const chooseField = async (text: string) =>
					await pickOption(
						page
							.locator('div.parameter-value-container[data-test-id="parameter-input-field"]')
							.first(),
						text,
					);
				await chooseField('Lead Source');
				const upperBound = page.getByText('Value (Upper Bound)', { exact: true });
				assert(
					!(await visible('[data-test-id="parameter-input-value"]')),
					'a picklist field still shows the text Value',
				);
				assert(
					!(await upperBound
						.first()
						.isVisible()
						.catch(() => false)),
					'the upper bound shows for Equal',
				);
				// the list loads once the field is chosen: open it again if the first click came too early
				const web = dropdownItems()
					.filter({ has: page.getByText('Web', { exact: true }) })
					.first();
				for (let attempt = 1; ; attempt++) {
					await page.locator('[data-test-id="parameter-input-picklistValue"]').click();
					try {
						await web.waitFor({ timeout: 10_000 });
						break;
					} catch (error) {
						if (attempt === 3) throw error;
						await page.locator('[data-test-id="tab-params"]').click();
					}
				}
				await page.waitForTimeout(500);
				const values = (await dropdownItems().allInnerTexts()).map((t) => t.split('\n')[0].trim());
				assert(values.includes('Web'), `Lead Source values: ${JSON.stringify(values)}`);
				await dropdownItems()
					.filter({ has: page.getByText('Web', { exact: true }) })
					.first()
					.click();
				await shot('13-bulk-condition-picklist.png');
				// a number field: text value; the upper bound appears with Between
				await chooseField('No. of Employees');
				await page.locator('[data-test-id="parameter-input-value"]').waitFor();
				assert(
					!(await upperBound
						.first()
						.isVisible()
						.catch(() => false)),
					'the upper bound shows for Equal on a number field',
				);
				await choose('comparator', 'Between');
				await upperBound.first().waitFor();
				await page.waitForTimeout(600); // the operator list fades out
				await shot('14-bulk-condition-between.png');
				await closeNdv();
			},
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
