// e2e step: every workflow of examples/, as a new user meets it. Each is opened in the editor (no
// issue mark on any canvas node, no parameter warning in any node's panel), run with "Execute
// workflow", and its effect is checked in the sandbox. The trigger example is only opened here:
// the publish step (trigger-example.mts) runs it.
//
// Every file of examples/ needs an entry in CHECKS (by file name): a new example without one fails
// the step, so no example goes untested.
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { REPO } from '../n8n-runtime.mts';
import { assert, executionResult, sleep } from './context.mts';
import type { RunResult, StepContext } from './context.mts';

type Row = Record<string, unknown>;

/** Once more when a pooled keep-alive socket was reset (a busy machine lets servers drop idle sockets). */
async function again<T>(call: () => Promise<T>): Promise<T> {
	try {
		return await call();
	} catch (error) {
		if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
		return await call();
	}
}

/** What running an example must have done; `undefined` for an example another step runs. */
interface ExampleCheck {
	/** reads the sandbox before the run; what it returns goes to `after` */
	before?: (ctx: StepContext) => Promise<unknown>;
	after: (ctx: StepContext, run: RunResult, before: unknown) => Promise<string>;
}

const sandboxRecord = async (ctx: StepContext, module: string, id: string): Promise<Row> => {
	const res = await again(
		async () => await ctx.sandbox.call<{ data?: Row[] }>('GET', `/crm/v2.1/${module}/${id}`),
	);
	assert(
		res.status === 200 && res.body.data?.[0],
		`the sandbox has no ${module} record ${id}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
	);
	return res.body.data[0];
};

const allRecords = async (ctx: StepContext, module: string): Promise<Row[]> => {
	const all: Row[] = [];
	for (let page = 1; ; page++) {
		const res = await again(
			async () =>
				await ctx.sandbox.call<{ data?: Row[]; info?: { more_records?: boolean } }>(
					'GET',
					`/crm/v2.1/${module}?per_page=200&page=${page}`,
				),
		);
		all.push(...(res.body.data ?? []));
		if (!res.body.info?.more_records) return all;
	}
};

const sameIds = (a: unknown[], b: unknown[]) =>
	JSON.stringify(a.map(String).sort()) === JSON.stringify(b.map(String).sort());

const CHECKS: Record<string, ExampleCheck | undefined> = {
	'01-new-lead-enrich-update.json': {
		after: async (ctx, run) => {
			const [read] = run.output['Read back'] ?? [];
			assert(
				read?.id,
				`"Read back" returned ${JSON.stringify(run.output['Read back']).slice(0, 300)}`,
			);
			const lead = await sandboxRecord(ctx, 'Leads', String(read.id));
			const expected = {
				First_Name: 'Ada',
				Last_Name: 'Lovelace',
				Company: 'Analytical Engines Ltd',
				Lead_Source: 'Web Download',
				Website: 'https://www.analytical-engines.example',
				Industry: 'Systems Integrator',
				No_of_Employees: 42,
				Lead_Status: 'Contacted',
			};
			const wrong = Object.entries(expected).filter(([k, v]) => lead[k] !== v);
			assert(
				wrong.length === 0,
				`the lead in the sandbox has ${wrong.map(([k, v]) => `${k}=${JSON.stringify(lead[k])} (expected ${JSON.stringify(v)})`).join(', ')}`,
			);
			assert(
				/^ada\.\d+@analytical-engines\.example$/.test(String(lead.Email)),
				`the lead's Email is ${JSON.stringify(lead.Email)}`,
			);
			return `lead ${String(lead.id)} created and enriched`;
		},
	},
	'02-sync-deals-return-all.json': {
		before: async (ctx) => await allRecords(ctx, 'Deals'),
		after: async (_ctx, run, before) => {
			const deals = before as Row[];
			const got = run.output['Get all deals'] ?? [];
			assert(
				sameIds(
					got.map((d) => d.id),
					deals.map((d) => d.id),
				),
				`"Get all deals" returned ${got.length} deals, the sandbox has ${deals.length}`,
			);
			const perStage = new Map<string, number>();
			for (const d of deals)
				perStage.set(String(d.Stage), (perStage.get(String(d.Stage)) ?? 0) + 1);
			const rows = run.output['Pipeline by stage'] ?? [];
			const shown = new Map(rows.map((r) => [String(r.stage), Number(r.count_crm_id)]));
			assert(
				shown.size === perStage.size && [...perStage].every(([stage, n]) => shown.get(stage) === n),
				`"Pipeline by stage" counts ${JSON.stringify([...shown])}, the sandbox ${JSON.stringify([...perStage])}`,
			);
			return `${deals.length} deals in ${perStage.size} stages`;
		},
	},
	// published and run by the trigger step (trigger-example.mts); opened (and checked) here
	'03-deal-stage-changed-trigger.json': undefined,
	'04-convert-qualified-leads.json': {
		after: async (ctx, run) => {
			const leads = run.output['Find qualified leads'] ?? [];
			const converted = run.output['Convert lead'] ?? [];
			assert(leads.length > 0, 'the sandbox has no Pre-Qualified lead to convert');
			assert(
				converted.length === leads.length,
				`${leads.length} leads found, ${converted.length} converted`,
			);
			for (const [i, out] of converted.entries()) {
				const lead = leads[i];
				assert(
					lead.Lead_Status === 'Pre-Qualified',
					`a found lead has Lead_Status ${JSON.stringify(lead.Lead_Status)}`,
				);
				const deal = await sandboxRecord(ctx, 'Deals', String(out.Deals));
				const name = `${String(lead.Company || lead.Last_Name)} - first order`;
				assert(
					deal.Deal_Name === name && deal.Stage === 'Qualification' && deal.Amount === 5000,
					`the deal of lead ${String(lead.id)} is ${JSON.stringify({ Deal_Name: deal.Deal_Name, Stage: deal.Stage, Amount: deal.Amount })}`,
				);
				const contact = await sandboxRecord(ctx, 'Contacts', String(out.Contacts));
				assert(
					contact.Last_Name === lead.Last_Name,
					`the contact of lead ${String(lead.id)} is ${String(contact.Last_Name)}`,
				);
				await sandboxRecord(ctx, 'Accounts', String(out.Accounts));
			}
			return `${converted.length} leads converted, each with a contact, an account and a deal`;
		},
	},
	'05-bulk-export.json': {
		after: async (ctx, run) => {
			const won = (await allRecords(ctx, 'Deals')).filter((d) => d.Stage === 'Closed Won');
			const rows = run.output['Export won deals'] ?? [];
			assert(won.length > 0, 'the sandbox has no Closed Won deal');
			assert(
				sameIds(
					rows.map((r) => r.id),
					won.map((d) => d.id),
				),
				`the export has ${rows.length} rows, the sandbox ${won.length} Closed Won deals`,
			);
			const byId = new Map(won.map((d) => [String(d.id), d]));
			const off = rows.filter(
				(r) => r.Stage !== 'Closed Won' || r.Deal_Name !== byId.get(String(r.id))?.Deal_Name,
			);
			assert(
				off.length === 0,
				`export rows that differ from the sandbox: ${JSON.stringify(off.slice(0, 3))}`,
			);
			const file = run.binary['Write CSV']?.[0]?.data;
			assert(
				file?.fileName === 'won-deals.csv',
				`"Write CSV" made ${JSON.stringify(run.binary['Write CSV'])}`,
			);
			return `${rows.length} Closed Won deals exported to ${file.fileName}`;
		},
	},
};

/** The workflow's canvas: no node shows n8n's issue mark, and no node's panel a parameter warning. */
async function openWithoutIssues(
	ctx: StepContext,
	id: string,
	file: string,
	nodes: Array<{ name: string; type: string }>,
): Promise<void> {
	const { page } = ctx;
	await page.goto(`/workflow/${id}`);
	// a loaded machine renders a workflow slowly
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 90_000 });
	await page.waitForTimeout(1500);
	const marked = await page
		.locator('[data-test-id="canvas-node"]')
		.filter({ has: page.locator('[data-test-id="node-issues"]') })
		.allInnerTexts();
	assert(
		marked.length === 0,
		`${file}: canvas nodes with issues: ${marked.map((t) => t.split('\n')[0]).join(', ')}`,
	);
	const ndv = page.locator('[data-test-id="ndv"]');
	for (const node of nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')) {
		await page.locator(`[data-test-id="canvas-node"][data-node-name="${node.name}"]`).dblclick();
		await ndv.waitFor({ timeout: 60_000 });
		// option lists load from the CRM; n8n checks saved values against them once loaded
		await page.waitForTimeout(1000);
		for (
			const until = Date.now() + 60_000;
			(await ndv.getByText('Loading options...').count()) > 0 && Date.now() < until;

		)
			await page.waitForTimeout(500);
		await page.waitForTimeout(1000);
		const issues = await ndv.locator('[data-test-id="parameter-issues"]').count();
		const unsupported = await ndv
			.getByText(/is not supported|problem loading the parameter options/)
			.count();
		if (issues + unsupported > 0)
			await ctx.shot(`17-example-issues-${path.basename(file, '.json')}.png`);
		assert(
			issues + unsupported === 0,
			`${file}: node "${node.name}" shows ${issues} parameter warning(s)${unsupported ? ' ("not supported" / options not loaded)' : ''}`,
		);
		if (node.type === 'n8n-nodes-crm-service.crmBulk') {
			// a job per input item, said before anything else
			await ndv
				.getByText('One job per input item', { exact: false })
				.first()
				.waitFor({ timeout: 10_000 });
			await ctx.shot('17-example-bulk-export-panel.png');
		}
		await page.locator('[data-test-id="ndv-close-button"]').click();
		await ndv.waitFor({ state: 'hidden' });
	}
}

/** "Execute workflow" on the open canvas; the execution it saved, once ended. */
async function executeFromEditor(ctx: StepContext, id: string, file: string): Promise<RunResult> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: id }));
	const list = async () =>
		(
			await again(
				async () =>
					await ctx.api.request<{ results?: Array<{ id: string }> }>(
						'GET',
						`/rest/executions?filter=${filter}`,
					),
			)
		).data.results ?? [];
	const seen = new Set((await list()).map((e) => e.id));
	await ctx.page.locator('[data-test-id="execute-workflow-button"]').click();
	let executionId: string | undefined;
	for (const until = Date.now() + 30_000; !executionId && Date.now() < until; await sleep(500)) {
		executionId = (await list()).find((e) => !seen.has(e.id))?.id;
	}
	assert(executionId, `${file}: no execution saved 30 s after "Execute workflow"`);
	const found = executionId; // narrowed for the closure
	const run = await again(async () => await executionResult(ctx, found, file));
	assert(run.status === 'success', `${file}: the run ended ${run.status}: ${run.error ?? ''}`);
	await ctx.page
		.getByText('Workflow executed successfully')
		.first()
		.waitFor({ timeout: 15_000 })
		.catch(() => undefined);
	return run;
}

export async function examplesStep(ctx: StepContext): Promise<void> {
	const files = readdirSync(path.join(REPO, 'examples'))
		.filter((f) => f.endsWith('.json'))
		.sort();
	const unchecked = files.filter((f) => !(f in CHECKS));
	assert(
		unchecked.length === 0,
		`examples without a check in scripts/e2e/examples.mts: ${unchecked.join(', ')}`,
	);
	for (const file of files) {
		const imported = ctx.stack.workflows.find((w) => w.file === file);
		assert(imported, `${file} was not imported into n8n`);
		const saved = await again(
			async () =>
				await ctx.api.request<{ nodes?: Array<{ name: string; type: string }> }>(
					'GET',
					`/rest/workflows/${imported.id}`,
				),
		);
		await openWithoutIssues(ctx, imported.id, file, saved.data.nodes ?? []);
		const check = CHECKS[file];
		if (!check) {
			ctx.log(`  ${file}: opens without warnings (run by the trigger step)`);
			continue;
		}
		const before = await check.before?.(ctx);
		const run = await executeFromEditor(ctx, imported.id, file);
		await ctx.shot(`17-example-${path.basename(file, '.json')}-run.png`);
		ctx.log(`  ${file}: opens without warnings; ${await check.after(ctx, run, before)}`);
	}
}
