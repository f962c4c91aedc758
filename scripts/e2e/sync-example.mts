// e2e step 6: the example workflow that gets all deals ("Return All") executes from the editor; the
// edge shows every deal and the node's output lists them.
import { assert, sleep } from './context.mts';
import type { EditorStepContext } from './editor.mts';

export async function syncExampleStep(
	ctx: EditorStepContext,
	syncExample: { id: string } | undefined,
): Promise<void> {
	const { page, sandbox, shot, closeNdv } = ctx;
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
	await page.locator('[data-test-id="canvas-node"][data-node-name="Get all deals"]').dblclick();
	const output = page.locator('[data-test-id="output-panel"]');
	await output.getByText(`${deals.length} items`).first().waitFor();
	const anyDeal = new RegExp(
		deals.map((d) => String(d.Deal_Name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
	);
	await output.getByText(anyDeal).first().waitFor();
	await shot('08-example-sync-deals-output.png');
	await closeNdv();
}
