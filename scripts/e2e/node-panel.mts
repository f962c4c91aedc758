// e2e steps 3 and 4: the node panel searched for "CRM" lists every node of the package; CRM Record
// (clicked there) shows all its actions, then its resources and the record operations.
import type { PackageNode } from '../start.mts';
import { assert } from './context.mts';
import { actionsOf, operationsOf, resourcesOf } from './descriptions.mts';
import type { EditorStepContext } from './editor.mts';

export async function nodePanelStep(ctx: EditorStepContext): Promise<void> {
	const { page, stack, shot } = ctx;
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
}

/** goes on in the node panel of nodePanelStep */
export async function recordActionsStep(
	ctx: EditorStepContext,
	recordNode: PackageNode | undefined,
): Promise<void> {
	const { page, shot, log, listOptions, dropdownItems } = ctx;
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
	await page.locator('[data-test-id="node-creator-item-name"]').first().scrollIntoViewIfNeeded();
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
}
