// e2e step: bulk read conditions in the CRM Bulk panel: a picklist field's values in a dropdown, the
// upper bound only for Between.
import type { PackageNode } from '../start.mts';
import { assert } from './context.mts';
import { actionOf } from './descriptions.mts';
import type { EditorStepContext } from './editor.mts';

export async function bulkConditionsStep(
	ctx: EditorStepContext,
	bulkNode: PackageNode | undefined,
): Promise<void> {
	const {
		page,
		shot,
		addNode,
		visible,
		choose,
		chooseModule,
		pickOption,
		dropdownItems,
		closeNdv,
	} = ctx;
	await addNode('CRM Bulk', actionOf(bulkNode, 'bulkRead', 'create'));
	await chooseModule('Leads');
	await choose('filterType', 'Build Conditions');
	await page.getByRole('button', { name: 'Add Condition' }).first().click();
	// "parameter-input-field" is also the test id of every text input: take the parameter's container
	const chooseField = async (text: string) =>
		await pickOption(
			page.locator('div.parameter-value-container[data-test-id="parameter-input-field"]').first(),
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
}
