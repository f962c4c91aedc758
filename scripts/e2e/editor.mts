// The editor helpers of the e2e steps (dropdowns, the Module picker, a new node's panel) and the
// context of the steps of scripts/e2e.mts that drive the full playwright page.
import type { Stack } from '../start.mts';
import type { BrowserContext, Locator, Page } from './browser.mts';
import type { StepContext } from './context.mts';
import type { SandboxApi } from './sandbox-api.mts';

/** The helpers of an editor page, for its open node panel. */
export function editorHelpers(page: Page) {
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
	return {
		closeNdv,
		dropdownItems,
		listOptions,
		pickOption,
		choose,
		moduleItems,
		chooseModule,
		addNode,
		visible,
	};
}

export type EditorHelpers = ReturnType<typeof editorHelpers>;

/** What a step gets: StepContext with the full page, its browser context, the stack and the sandbox client. */
export interface EditorStepContext
	extends Omit<StepContext, 'page' | 'stack' | 'sandbox' | 'choose'>,
		EditorHelpers {
	page: Page;
	context: BrowserContext;
	stack: Stack;
	sandbox: SandboxApi;
}
