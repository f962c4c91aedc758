// e2e step 1: the owner signs in on the editor's page and sees the example workflows.
import type { EditorStepContext } from './editor.mts';

export async function signInStep(ctx: EditorStepContext): Promise<void> {
	const { page, stack, shot } = ctx;
	await page.goto('/signin');
	await page.locator('input[name="emailOrLdapLoginId"]').fill(stack.owner.email);
	await page.locator('input[name="password"]').fill(stack.owner.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
	for (const w of stack.workflows) await page.getByText(w.name, { exact: true }).first().waitFor();
	await shot('01-signed-in-workflows.png');
}
