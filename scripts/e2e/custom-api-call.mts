// e2e step: a custom API call to the CRM, as n8n 2.40.7 lets a user make one.
//
// How n8n decides (read in .n8n-runtime/node_modules):
// - the node panel's "Make a custom … API call" link (data-action="addHttpNode") is rendered only
//   when the actions view has no `communityNodeDetails`, which it always has for a community node;
//   its handler would add a bare HTTP Request (authentication predefinedCredentialType, no type);
// - a credential's `httpRequestNode` (an "HTTP Request with this credential" panel entry) is forced
//   hidden by n8n-core's PackageDirectoryLoader.inferSupportedNodes for any package credential that
//   has nodes, so the credential declares none;
// - LoadNodesAndCredentials.injectCustomApiCallOptions adds a "Custom API Call" Resource/Operation
//   option to the latest, single-version nodes whose credential extends oAuth2Api; picking it only
//   shows a notice sending the user to the HTTP Request node.
// So the path that works is HTTP Request → Authentication "Predefined Credential Type" → "CRM OAuth2
// API". This step checks that the dead link is absent and that this path works, in the editor and
// in a run against the sandbox.
import { assert, createAndRun, sandboxRequests } from './context.mts';
import type { StepContext } from './context.mts';

const CREDENTIAL_TYPE = 'crmOAuth2Api';

export async function customApiCallStep(ctx: StepContext): Promise<void> {
	const { page } = ctx;
	const creds = await ctx.api.request<
		Array<{ name: string; displayName: string; extends?: string[]; httpRequestNode?: unknown }>
	>('GET', '/types/credentials.json');
	const credType = Array.isArray(creds.data)
		? creds.data.find((c) => c.name === CREDENTIAL_TYPE)
		: undefined;
	assert(credType, `n8n serves no credential type ${CREDENTIAL_TYPE}`);
	assert(
		credType.extends?.includes('oAuth2Api'),
		`n8n serves ${CREDENTIAL_TYPE} as ${JSON.stringify(credType).slice(0, 300)}`,
	);
	// for the report: which nodes carry the injected "Custom API Call" option
	const types = await ctx.api.request<
		Array<{
			name: string;
			properties: Array<{ name: string; options?: Array<{ value?: unknown }> }>;
		}>
	>('GET', '/types/nodes.json');
	const injected = (Array.isArray(types.data) ? types.data : [])
		.filter((t) => ctx.stack.nodes.some((n) => n.type === t.name))
		.filter((t) =>
			t.properties.some(
				(p) =>
					['resource', 'operation'].includes(p.name) &&
					(p.options ?? []).some((o) => o.value === '__CUSTOM_API_CALL__'),
			),
		)
		.map((t) => t.name.split('.').pop());
	ctx.log(`  nodes with n8n's "Custom API Call" option: ${injected.join(', ') || 'none'}`);

	// 1. CRM Record's actions in the node panel: no "custom API call" link
	await page.goto('/workflow/new');
	await page.locator('[data-test-id="canvas-plus-button"]').click();
	await page.locator('[data-test-id="node-creator-search-bar"]').fill('CRM Record');
	await page
		.locator('[data-test-id="node-creator-item-name"]', { hasText: /^CRM Record$/ })
		.first()
		.click();
	await page.getByText('Search records', { exact: true }).first().waitFor();
	await page.waitForTimeout(500);
	const links = await page.locator('[data-action="addHttpNode"]').count();
	await ctx.shot('16-crm-record-actions-no-api-link.png');
	assert(links === 0, `the CRM Record actions panel shows ${links} "custom API call" link(s)`);

	// 2. HTTP Request → Predefined Credential Type offers "CRM OAuth2 API" and then the CRM credential
	await page.goto('/workflow/new');
	await page.locator('[data-test-id="canvas-plus-button"]').click();
	await page.locator('[data-test-id="node-creator-search-bar"]').fill('HTTP Request');
	await page
		.locator('[data-test-id="node-creator-item-name"]', { hasText: /^HTTP Request$/ })
		.first()
		.click();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor();
	await ctx.choose('authentication', 'Predefined Credential Type');
	await page.locator('[data-test-id="parameter-input-nodeCredentialType"]').click();
	await page
		.locator('[data-test-id="parameter-input-nodeCredentialType"] input')
		.first()
		.fill('CRM');
	const option = page
		.locator('.el-select-dropdown__item:visible')
		.filter({ has: page.getByText(credType.displayName, { exact: true }) })
		.first();
	await option.waitFor({ timeout: 15_000 });
	await option.click();
	await ndv
		.getByText(`Credential for ${credType.displayName}`)
		.first()
		.waitFor()
		.catch(() => undefined);
	const crm = await ctx.api.request<{ id: string; name: string }>(
		'GET',
		`/rest/credentials/${ctx.stack.credentialId}`,
	);
	const credentialSelect = ndv.locator('[data-test-id="node-credentials-select"]');
	await credentialSelect.waitFor();
	// a credential of the type is picked for the user (step 5 may have added a second one)
	const all = await ctx.api.request<Array<{ name: string; type: string }>>(
		'GET',
		'/rest/credentials',
	);
	const names = (Array.isArray(all.data) ? all.data : [])
		.filter((c) => c.type === CREDENTIAL_TYPE)
		.map((c) => c.name);
	const selected = await credentialSelect.locator('input').first().inputValue();
	await ctx.shot('16-http-request-crm-credential-type.png');
	assert(
		names.includes(selected),
		`the credential picked for ${credType.displayName} is ${JSON.stringify(selected)}, expected one of ${JSON.stringify(names)}`,
	);
	await page.keyboard.press('Escape');

	// 3. such a node, run: n8n adds the CRM token to the request (docs/protocol.md §2.2)
	await ctx.sandbox.call('DELETE', '/__sandbox/requests');
	const path = '/crm/v2.1/Contacts?per_page=2';
	const run = await createAndRun(
		ctx,
		{
			name: 'CRM custom API call (e2e)',
			nodes: [
				{
					id: 'b0b7d3a8-0000-4000-8000-000000000001',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'b0b7d3a8-0000-4000-8000-000000000002',
					name: 'HTTP Request',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					position: [220, 0],
					parameters: {
						authentication: 'predefinedCredentialType',
						nodeCredentialType: CREDENTIAL_TYPE,
						url: `${ctx.stack.sandboxUrl}${path}`,
						options: {},
					},
					credentials: { [CREDENTIAL_TYPE]: { id: crm.data.id, name: crm.data.name } },
				},
			],
			connections: { Start: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
		},
		'Start',
	);
	assert(
		run.status === 'success',
		`the HTTP Request with the CRM credential ended ${run.status}: ${run.error ?? ''}`,
	);
	const items = run.output['HTTP Request'] ?? [];
	assert(
		Array.isArray(items[0]?.data) && (items[0].data as unknown[]).length === 2,
		`the HTTP Request returned ${JSON.stringify(items).slice(0, 300)}`,
	);
	const logged = (await sandboxRequests(ctx)).find((r) => r.method === 'GET' && r.url === path);
	assert(
		logged?.status === 200,
		`the sandbox logged no authorised GET ${path}: ${JSON.stringify(logged)}`,
	);
}
