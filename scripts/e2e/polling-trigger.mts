// The CRM Polling Trigger in a real n8n: the node panel shows it next to the CRM Trigger with the
// instant/polling choice in their descriptions; a workflow polling Leads every minute is published,
// records are created in the sandbox, and an execution carries exactly those records (nothing from
// before the publish); then the workflow is unpublished.
import type { StepContext } from './context.mts';
import { assert, readRun, sleep } from './context.mts';

interface Exec {
	id: string;
	status: string;
	mode: string;
}

export async function pollingTriggerStep(ctx: StepContext): Promise<void> {
	const { page, api, sandbox, stack } = ctx;
	const polling = stack.nodes.find((n) => n.name === 'crmPollingTrigger')!;
	const instant = stack.nodes.find((n) => n.name === 'crmTrigger');
	// a loaded machine takes a while to load the editor: longer than the default 30 s
	const open = async (url: string) =>
		await (page as unknown as { goto(url: string, o: { timeout: number }): Promise<unknown> }).goto(
			url,
			{ timeout: 120_000 },
		);

	// --- a published polling workflow ---
	const name = 'CRM Polling Trigger e2e';
	const created = await api.request<{ id?: string; versionId?: string }>(
		'POST',
		'/rest/workflows',
		{
			name,
			nodes: [
				{
					id: 'a1f1c6a2-0000-4000-8000-000000000011',
					name: 'CRM Polling Trigger',
					type: polling.type,
					typeVersion: 1,
					position: [0, 0],
					parameters: {
						pollTimes: { item: [{ mode: 'everyMinute' }] },
						event: 'createdOrUpdated',
						modules: ['Leads'],
					},
					credentials: { crmOAuth2Api: { id: stack.credentialId, name: 'CRM' } },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		},
	);
	assert(
		created.status === 200 && created.data.id,
		`n8n refused the polling workflow: ${created.status} ${JSON.stringify(created.data).slice(0, 400)}`,
	);
	const id = created.data.id;
	const activated = await api.request('POST', `/rest/workflows/${id}/activate`, {
		versionId: created.data.versionId,
	});
	assert(
		activated.status === 200,
		`publishing failed: ${activated.status} ${JSON.stringify(activated.data).slice(0, 400)}`,
	);
	const executions = async () =>
		(
			await api.request<{ results?: Exec[] }>(
				'GET',
				`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: id }))}`,
			)
		).data.results ?? [];
	try {
		// activation runs a first poll: it starts from now and emits nothing
		await sleep(3000);
		assert(
			(await executions()).length === 0,
			'the first poll emitted records from before the publish',
		);

		const stamp = Date.now().toString(36);
		const names = [`Polled ${stamp} A`, `Polled ${stamp} B`];
		const res = await sandbox.call<{ data: Array<{ code: string; details: { id: string } }> }>(
			'POST',
			'/crm/v2.1/Leads',
			{
				data: names.map((n) => ({ Last_Name: n, Company: 'Polling e2e' })),
			},
		);
		assert(
			res.body.data?.every((d) => d.code === 'SUCCESS'),
			`lead creation refused: ${JSON.stringify(res.body)}`,
		);
		const ids = res.body.data.map((d) => d.details.id);
		ctx.log(`  created leads ${ids.join(', ')}; waiting for the next poll (every minute)`);

		let execution: Exec | undefined;
		for (const until = Date.now() + 150_000; !execution && Date.now() < until; ) {
			execution = (await executions()).find((e) => e.status === 'success');
			if (!execution) await sleep(2000);
		}
		assert(execution, 'no successful execution of the polling workflow within 150 s of the change');
		const detail = await api.request<{ data?: string }>('GET', `/rest/executions/${execution.id}`);
		const items = readRun(String(detail.data?.data ?? '')).output['CRM Polling Trigger'] ?? [];
		// exactly the two new leads, as created, with their records (nothing from before the publish)
		const got = items.map((i) => [
			i.event,
			i.module,
			i.id,
			(i.record as Record<string, unknown> | undefined)?.Last_Name,
		]);
		assert(
			JSON.stringify(got) === JSON.stringify(ids.map((i, k) => ['created', 'Leads', i, names[k]])),
			`the execution's items are not the two new leads: ${JSON.stringify(got)}`,
		);
		await open(`/workflow/${id}/executions/${execution.id}`);
		await page
			.getByText(names[0])
			.first()
			.waitFor({ timeout: 30_000 })
			.catch(() => undefined);
		await page.waitForTimeout(1500);
		await ctx.shot('12-polling-trigger-execution.png');
		// no second execution for the same records at the next polls
		const count = (await executions()).length;
		assert(count === 1, `${count} executions for one change`);
	} finally {
		const off = await api.request<{ active?: boolean }>(
			'POST',
			`/rest/workflows/${id}/deactivate`,
			{},
		);
		assert(off.status === 200, `unpublishing failed: ${off.status}`);
	}
	const wf = await api.request<{ active?: boolean }>('GET', `/rest/workflows/${id}`);
	assert(wf.data.active === false, 'the polling workflow is still active after unpublishing');

	// --- the node panel: both triggers, each saying when to use it ---
	await open('/workflow/new');
	const plus = page.locator('[data-test-id="canvas-plus-button"]');
	await plus.waitFor({ timeout: 120_000 });
	await plus.click();
	await page.locator('[data-test-id="node-creator-search-bar"]').fill('CRM');
	const item = (type: string) =>
		page.locator(`[data-test-id="item-iterator-item"][data-keyboard-nav-id^="${type}-"]`).first();
	await item(polling.type).waitFor({ timeout: 60_000 });
	const pollingText = await item(polling.type).innerText();
	assert(
		/Polling — works anywhere/.test(pollingText),
		`the polling trigger's entry does not say it works anywhere: ${JSON.stringify(pollingText)}`,
	);
	if (instant) {
		const instantText = await item(instant.type).innerText();
		assert(
			/Instant — the CRM must reach your n8n/.test(instantText),
			`the CRM Trigger's entry does not say it is instant: ${JSON.stringify(instantText)}`,
		);
	}
	await page.waitForTimeout(500);
	await ctx.shot('11-node-panel-instant-or-polling.png');
	await page.keyboard.press('Escape');
}
