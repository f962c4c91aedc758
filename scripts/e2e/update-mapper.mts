// e2e step: Update with "Map Each Field Below", as a first-time user does it: new workflow → CRM
// Record → Update → Module Leads (from the list). The mapper shows the Record ID box at once (n8n's
// mapper used to open with its default matching column removed, until it was picked again), a field
// is added and filled, the node executes, and the record is changed in the sandbox.
import { assert } from './context.mts';
import type { StepContext } from './context.mts';

export async function updateMapperStep(ctx: StepContext): Promise<void> {
	const { page } = ctx;
	const created = await ctx.sandbox.call<{ data: Array<{ details: { id: string } }> }>(
		'POST',
		'/crm/v2.1/Leads',
		{
			data: [{ Last_Name: 'Mapperton', Company: 'Map Co', City: 'Before' }],
		},
	);
	const id = created.body.data[0].details.id;

	await page.goto('/workflow/new');
	await page.locator('[data-test-id="canvas-plus-button"]').click();
	await page.locator('[data-test-id="node-creator-search-bar"]').fill('CRM Record');
	await page
		.locator('[data-test-id="node-creator-item-name"]', { hasText: /^CRM Record$/ })
		.first()
		.click();
	await page.getByText('Update a record', { exact: true }).first().click();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor();

	// the Module picker's list opens on click and lists modules by their plural label
	await page
		.locator('[data-test-id="parameter-input-module"] [data-test-id="rlc-input"]')
		.first()
		.click();
	const leads = page
		.locator('[data-test-id="rlc-item"]')
		.filter({ hasText: /^Leads$/ })
		.first();
	await leads.waitFor({ timeout: 30_000 });
	await ctx.shot('21-update-module-list.png');
	await leads.click();

	// at once, without touching "Record To Update": the Record ID box
	const mapper = page.locator('[data-test-id="resource-mapper-container"]');
	await mapper.waitFor();
	const recordId = mapper.locator('[data-test-id="parameter-input-id"] input').first();
	await recordId.waitFor({ timeout: 30_000 });
	await ctx.shot('21-update-mapper-first-open.png');
	assert(await recordId.isVisible(), 'the mapper shows no Record ID box after choosing Leads');
	await recordId.fill(id);

	// a field to change, from the mapper's field list
	await page.locator('[data-test-id="add-fields-select"] button').first().click();
	await page.getByRole('menuitem', { name: 'City', exact: true }).first().click();
	const city = mapper.locator('[data-test-id="parameter-input-City"] input').first();
	await city.waitFor();
	await city.fill('Mapped City');
	await page.waitForTimeout(500);
	await ctx.shot('21-update-mapper-filled.png');

	await page.locator('[data-test-id="node-execute-button"]').click();
	await page
		.locator('[data-test-id="output-panel"]')
		.getByText('Mapped City')
		.first()
		.waitFor({ timeout: 60_000 });
	await ctx.shot('21-update-mapper-output.png');
	const after = await ctx.sandbox.call<{ data: Array<{ City: string; Last_Name: string }> }>(
		'GET',
		`/crm/v2.1/Leads/${id}`,
	);
	assert(
		after.body.data?.[0]?.City === 'Mapped City',
		`the lead's City is ${JSON.stringify(after.body.data?.[0]?.City)} after the update`,
	);
	assert(
		after.body.data[0].Last_Name === 'Mapperton',
		'the update changed fields it was not given',
	);
	await page.locator('[data-test-id="ndv-close-button"]').click();
}
