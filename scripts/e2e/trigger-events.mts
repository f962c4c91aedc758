// e2e step: the node panel lists the CRM Trigger's events as separate entries, as n8n lists its own
// triggers' events. n8n 2.40.7's node creator reads a trigger's "Events" options parameter and names
// each entry by the option's `action` ("On record created", …); picking one adds the trigger with
// that event chosen. The trigger panel names trigger nodes without their " Trigger" suffix ("CRM").
import { assert } from './context.mts';
import type { StepContext } from './context.mts';

const ENTRIES = [
	'On any record change',
	'On record created',
	'On record deleted',
	'On record updated',
];
/** a loaded machine opens a new workflow slowly: more than Playwright's default 30 s */
const SLOW = 90_000;

export async function triggerEventsStep(ctx: StepContext): Promise<void> {
	const { page } = ctx;
	await (page as unknown as { goto(url: string, o: { timeout: number }): Promise<unknown> }).goto(
		'/workflow/new',
		{ timeout: SLOW },
	);
	await page.locator('[data-test-id="canvas-plus-button"]').click({ timeout: SLOW });
	await page.locator('[data-test-id="node-creator-search-bar"]').fill('CRM Trigger');
	// the entry is picked by its description: its name there is just "CRM"
	await page
		.getByText(/^Instant — the CRM must reach your n8n/)
		.first()
		.click({ timeout: SLOW });
	await page.getByText(ENTRIES[1], { exact: true }).first().waitFor({ timeout: SLOW });
	await page.waitForTimeout(500);
	const missing: string[] = [];
	for (const entry of ENTRIES) {
		if ((await page.getByText(entry, { exact: true }).count()) === 0) missing.push(entry);
	}
	await ctx.shot('17-crm-trigger-events-in-node-panel.png');
	assert(
		missing.length === 0,
		`the CRM Trigger's node panel lacks the entries ${JSON.stringify(missing)}`,
	);

	// picking "On record updated" adds the trigger with the event Edit chosen
	await page.getByText('On record updated', { exact: true }).first().click({ timeout: SLOW });
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor({ timeout: SLOW });
	const events = ndv.locator('[data-test-id="parameter-input-events"]');
	await events.waitFor({ timeout: SLOW });
	await page.waitForTimeout(500);
	const chosen = await events.innerText();
	await ctx.shot('17-crm-trigger-on-record-updated.png');
	assert(
		/\bEdit\b/.test(chosen) && !/\bCreate\b/.test(chosen),
		`"On record updated" opened the trigger with Events ${JSON.stringify(chosen)}`,
	);
	await page.keyboard.press('Escape');
}
