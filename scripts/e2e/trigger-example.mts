// e2e step 7: the deal-stage trigger example is published (a watch channel then points at n8n), a
// deal's stage is changed in the sandbox, and the execution appears with the new stage.
import { assert, sleep } from './context.mts';
import type { EditorStepContext } from './editor.mts';

export async function triggerExampleStep(
	ctx: EditorStepContext,
	triggerExample: { id: string } | undefined,
): Promise<void> {
	const { page, stack, api, sandbox, shot, log } = ctx;
	const id = triggerExample!.id;
	await page.goto(`/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
	await page.locator('[data-test-id="workflow-publish-button"]').click();
	const gotIt = page.getByRole('button', { name: 'Got it' });
	await gotIt.waitFor({ timeout: 60_000 });
	await shot('09-trigger-published.png');
	await gotIt.click();
	const deadline = Date.now() + 60_000;
	for (;;) {
		const wf = await api.request<{ active?: boolean }>('GET', `/rest/workflows/${id}`);
		if (wf.data.active) break;
		assert(Date.now() < deadline, 'the workflow did not become active after Publish');
		await sleep(500);
	}
	// n8n registers the webhook (→ the trigger subscribes a watch channel) right after publishing
	const channelDeadline = Date.now() + 60_000;
	for (;;) {
		const watch = await sandbox.call<{ watch?: Array<{ notify_url: string }> }>(
			'GET',
			'/crm/v2.1/actions/watch',
		);
		if (
			(watch.body.watch ?? []).some((w) => w.notify_url.startsWith(`${stack.editorUrl}/webhook/`))
		)
			break;
		assert(
			Date.now() < channelDeadline,
			`no watch channel points at n8n 60 s after publishing: ${JSON.stringify(watch.body)}`,
		);
		await sleep(1000);
	}

	const deal = (await sandbox.allRecords('Deals')).find(
		(d) => d.Pipeline !== 'Enterprise' && !String(d.Stage).startsWith('Closed'),
	);
	assert(deal, 'no open deal outside the blueprint in the sandbox');
	const newStage =
		deal.Stage === 'Negotiation/Review' ? 'Proposal/Price Quote' : 'Negotiation/Review';
	const upd = await sandbox.call<{ data: Array<{ code: string }> }>('PUT', '/crm/v2.1/Deals', {
		data: [{ id: deal.id, Stage: newStage }],
	});
	assert(
		upd.body.data?.[0]?.code === 'SUCCESS',
		`stage change refused by the sandbox: ${JSON.stringify(upd.body)}`,
	);
	log(`  moved deal "${String(deal.Deal_Name)}" from ${String(deal.Stage)} to ${newStage}`);

	type Exec = { id: string; status: string; mode: string };
	let execution: Exec | undefined;
	const until = Date.now() + 60_000;
	while (!execution && Date.now() < until) {
		const list = await api.request<{ results?: Exec[] }>(
			'GET',
			`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: id }))}`,
		);
		execution = (list.data.results ?? []).find((e) => e.status === 'success');
		if (!execution) await sleep(1000);
	}
	assert(execution, 'no successful execution of the trigger workflow within 60 s of the change');
	await page.locator('[data-test-id="radio-button-executions"]').click();
	await page.waitForURL(/\/executions/);
	await page
		.getByText(newStage)
		.first()
		.waitFor({ timeout: 30_000 })
		.catch(() => undefined);
	await page.waitForTimeout(1500);
	await shot('10-trigger-execution.png');
	const detail = await api.request<{ data?: string }>('GET', `/rest/executions/${execution.id}`);
	assert(
		String(detail.data?.data ?? '').includes(newStage),
		`the execution data does not carry the new stage "${newStage}"`,
	);
}
