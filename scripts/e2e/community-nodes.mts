// e2e step 2: Settings → Community Nodes: what n8n reports of the installed package (version, node
// types, loaded) and what its package card shows.
import { PACKAGE_NAME } from '../n8n-runtime.mts';
import { assert } from './context.mts';
import type { EditorStepContext } from './editor.mts';

export async function communityNodesStep(ctx: EditorStepContext): Promise<void> {
	const { page, stack, api, shot } = ctx;
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
}
