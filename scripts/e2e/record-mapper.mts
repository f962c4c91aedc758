// e2e step: what a no-code user sees setting up a fresh CRM Record node: its Module list on first
// open, and the field mapper waiting for a module, then showing list and date-only fields.
import type { PackageNode } from '../start.mts';
import { assert } from './context.mts';
import { actionOf } from './descriptions.mts';
import type { EditorStepContext } from './editor.mts';

export async function recordMapperStep(
	ctx: EditorStepContext,
	recordNode: PackageNode | undefined,
): Promise<void> {
	const { page, shot, addNode, visible, moduleItems, closeNdv } = ctx;
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
	await mapper.getByText('Last Contacted Date (yyyy-MM-dd)', { exact: true }).first().waitFor();
	// n8n 2.40.7's mapper keeps only text, number and boolean values: a list is typed comma-separated
	const interests = mapper.locator('[data-test-id="parameter-input-Interests"] input').first();
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
}
