// e2e step 5: a new crmOAuth2Api credential from the CRM Record panel of step 4: its form asks for
// the service's Accounts URL (nothing local prefilled), the OAuth2 "Connect" button goes through the
// sandbox's authorize page, and the node loads the Module list and executes with it.
import { assert } from './context.mts';
import type { EditorStepContext } from './editor.mts';

export async function credentialConnectStep(ctx: EditorStepContext): Promise<void> {
	const { page, context, stack, sandbox, shot, closeNdv, chooseModule } = ctx;
	if (!(await page.locator('[data-test-id="ndv"]').isVisible())) {
		throw new Error('needs the CRM Record panel of the previous step');
	}
	await sandbox.call('DELETE', '/__sandbox/requests');
	await page.locator('[data-test-id="node-credentials-select"]').click();
	await page.locator('[data-test-id="node-credentials-select-item-new"]').click();
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	await modal.waitFor();
	await modal.locator('[data-test-id="credential-name"]').click();
	await modal
		.locator('[data-test-id="credential-name"] input')
		.fill('CRM sandbox (connected in the browser)');
	await modal.locator('[data-test-id="credential-name"] input').press('Enter');
	// the form reads top to bottom in the order a person decides: Server, its URL, then the client
	const order = await modal
		.evaluate((root) =>
			[...root.querySelectorAll('[data-test-id]')]
				.map((e) => e.getAttribute('data-test-id'))
				.filter((id) =>
					[
						'environment',
						'accountsUrl',
						'crmClientId',
						'crmClientSecret',
						'apiVariant',
						'crmScope',
						'clientId',
						'clientSecret',
						'scope',
					].includes(id ?? ''),
				),
		)
		.then((ids) => ids.filter((id, i) => ids.indexOf(id) === i));
	assert(
		order.join(' → ') ===
			'environment → accountsUrl → crmClientId → crmClientSecret → apiVariant → crmScope',
		`the credential form's fields are in the order ${order.join(' → ')}`,
	);
	await modal.locator('[data-test-id="crmClientId"] input').fill('e2e-browser-client');
	await modal.locator('[data-test-id="crmClientSecret"] input').fill('e2e-browser-secret');
	// as installed from the registry: the service's accounts server is asked for, nothing local is prefilled
	const accountsUrl = modal.locator('[data-test-id="accountsUrl"] input');
	const prefilled = await accountsUrl.inputValue();
	const placeholder = (await accountsUrl.getAttribute('placeholder')) ?? '';
	assert(
		prefilled === '' && /^https:\/\//.test(placeholder),
		`a new credential's Accounts URL is ${JSON.stringify(prefilled)} (placeholder ${JSON.stringify(placeholder)})`,
	);
	await accountsUrl.scrollIntoViewIfNeeded();
	await shot('05-credential-new.png');
	// the sandbox plays the CRM service here
	await accountsUrl.fill(stack.sandboxUrl);
	const popupPromise = context.waitForEvent('page', { timeout: 30_000 });
	await modal
		.locator('[data-test-id="oauth-not-connected-banner"]')
		.getByRole('button', { name: /connect/i })
		.first()
		.click();
	const popup = await popupPromise;
	// sandbox authorize page → 302 → n8n's callback, which exchanges the code and closes the window
	await popup.waitForEvent('close', { timeout: 30_000 });
	// the editor closes the dialog of a new credential once connected; reopen it to see the state
	await modal.waitFor({ state: 'hidden', timeout: 15_000 }).catch(() => undefined);
	if (!(await modal.isVisible()))
		await page.locator('[data-test-id="credential-edit-button"]').click();
	await modal.getByText('Account connected').waitFor();
	await shot('05-credential-connected.png');
	const requests = (
		await sandbox.call<{ requests: Array<{ method: string; url: string; status: number }> }>(
			'GET',
			'/__sandbox/requests',
		)
	).body.requests;
	const authorize = requests.find(
		(r) => r.url.startsWith('/oauth/v2/auth') && r.url.includes('client_id=e2e-browser-client'),
	);
	const token = requests.find((r) => r.method === 'POST' && r.url.startsWith('/oauth/v2/token'));
	assert(
		authorize?.status === 302,
		`the sandbox saw no authorize request from the browser (${JSON.stringify(requests.slice(0, 5))})`,
	);
	assert(token?.status === 200, 'n8n did not exchange the code at the sandbox token endpoint');
	await modal.locator('button[aria-label="Close this dialog"]').click();
	await modal.waitFor({ state: 'hidden' });
	// the module list was fetched while the credential had no token yet: reopen the node to reload it
	await closeNdv();
	await page.locator('[data-test-id="canvas-node"][data-node-name="Get many records"]').dblclick();
	await page.locator('[data-test-id="ndv"]').waitFor();

	// the new credential works: module list from the CRM, then Execute step
	await chooseModule('Deals');
	await page.locator('[data-test-id="node-execute-button"]').click();
	const firstDeal = (
		await sandbox.call<{ data: Array<{ Deal_Name: string }> }>('GET', '/crm/v2.1/Deals?per_page=1')
	).body.data[0];
	await page
		.locator('[data-test-id="output-panel"]')
		.getByText(firstDeal.Deal_Name)
		.first()
		.waitFor({ timeout: 60_000 });
	await shot('06-get-many-deals-output.png');
	await closeNdv();
}
