// One CRM change → one workflow run, through n8n's request path as n8n 2.40.7 runs it: every
// delivery loads the workflow's static data from the database into its own copy, runs webhook(),
// and saves the copy back where n8n does (after webhook() answered the request itself, or returned
// no execution; when webhook() lets n8n answer for an execution, n8n's save is skipped, see
// docs/crm-trigger.md). Accepted deliveries then run as production
// executions (mode 'webhook') with the trigger's execute() first, against the sandbox. Requests of
// one jest process share the trigger's process latch, as requests of one n8n process do; clearing
// it stands for a request that reached another n8n process.
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IRun,
	IWebhookResponseData,
} from 'n8n-workflow';

import type { CrmTrigger } from '../../../nodes/CrmTrigger/CrmTrigger.node';
import { latch } from '../../../nodes/CrmTrigger/processClaims';
import { RETRY } from '../../../nodes/shared/transport';
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { advanceSandboxClock, clearSandboxFaults, setSandboxFault } from '../../harness/sandbox';
import { crmTrigger, processedData, runProduction, triggerHarness } from '../../harness/trigger';

let crm: CrmFixture;
let trigger: CrmTrigger;
let counter = 0;

beforeAll(async () => {
	crm = await crmFixture({ sandbox: { demo: false } });
	trigger = crm.nodeTypes['n8n-nodes-crm-service.crmTrigger'] as unknown as CrmTrigger;
	processedData();
});
afterAll(async () => {
	await crm.close();
});

interface Answer {
	status: number;
	body: unknown;
	result: IWebhookResponseData;
	/** the answer was sent before webhook() first awaited (before it could make any CRM call) */
	answeredBeforeAwait: boolean;
	answeredAt: number;
	/** n8n's answer to this request, when it was left for later (`request(…, 'later')`) */
	n8n: (status: number | 'gone') => void;
}

/** An activated trigger whose static data lives in a modelled database row, plus a node after it. */
async function published(parameters: INode['parameters']) {
	counter++;
	const activation = crmTrigger(crm, parameters, {
		origin: 'http://127.0.0.1:9',
		webhookId: `0ce00000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
	});
	const { node } = activation;
	const next = crm.node(
		'crmRecord',
		{ resource: 'record', operation: 'getAll', module: 'Leads', returnAll: false, limit: 1 },
		{ name: 'Next' },
	);
	const connections = {
		[node.name]: { main: [[{ node: next.name, type: 'main' as const, index: 0 }]] },
	};
	await activation.activate();
	// n8n saves the activation's static data: this is the row every request loads
	let row = JSON.stringify({ [`node:${node.name}`]: activation.state() });
	const runs: IRun[] = [];

	/**
	 * One HTTP request as n8n handles it (live-webhooks.js → webhook-helpers.js → workflow-runner.js).
	 * `loaded`: the row as this request read it (default: the current one); an older row stands for
	 * a request that read the database before another request's save.
	 */
	const request = async (
		body: unknown,
		loaded = row,
		n8nAnswers: number | 'later' = 200,
	): Promise<Answer> => {
		const t = triggerHarness({ nodeTypes: crm.nodeTypes, credentialsHelper: crm.helper }, node);
		t.workflow.overrideStaticData(JSON.parse(loaded));
		t.workflow.staticData.__dataChanged = false;
		const { ctx, sent, answer } = t.webhookContext({
			body,
			headers: { 'content-type': 'application/json' },
		});
		// held before the call, as n8n's live-webhooks does, so webhook() starts synchronously here
		const owned = await t.acquireIsolate();
		const pending = trigger.webhook.call(ctx);
		// webhook() has run up to its first await
		const answeredBeforeAwait = sent.status !== undefined;
		const answeredAt = Date.now();
		const result = await pending.finally(async () => {
			if (owned) await t.releaseIsolate();
		});
		// n8n answers once it stored and queued the execution (an error status: storing it failed)
		if (n8nAnswers !== 'later') answer(n8nAnswers);
		// n8n's save: skipped when an execution starts and n8n answers (its flag is cleared first)
		const saved = result.noWebhookResponse === true || result.workflowData === undefined;
		if (saved && (t.workflow.staticData.__dataChanged as boolean) === true)
			row = JSON.stringify(t.workflow.staticData);
		return {
			status: result.noWebhookResponse ? (sent.status ?? 200) : 200,
			body: result.noWebhookResponse ? sent.body : result.webhookResponse,
			result,
			answeredBeforeAwait,
			answeredAt,
			n8n: answer,
		};
	};
	const execute = async (answer: { result: IWebhookResponseData }) => {
		if (!answer.result.workflowData) return undefined;
		const run = await runProduction(crm, [node, next], answer.result.workflowData[0], connections);
		runs.push(run);
		return run;
	};
	const emitted = (run: IRun): INodeExecutionData[] =>
		run.data.resultData.runData[node.name]?.[0]?.data?.main?.[0] ?? [];
	const nextRan = (run: IRun) => run.data.resultData.runData[next.name] !== undefined;
	const state = () => JSON.parse(row)[`node:${node.name}`] as Record<string, any>;
	const body = (extra: IDataObject) => ({
		server_time: Date.now(),
		query_params: {},
		module: 'Leads',
		affected_fields: [],
		channel_id: state().channelId,
		token: state().token,
		...extra,
	});
	return {
		node,
		request,
		execute,
		runs,
		emitted,
		nextRan,
		state,
		row: () => row,
		body,
		deactivate: async () => await activation.delete(),
	};
}

async function createLead(name: string): Promise<string> {
	const res = await crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: name }] });
	expect(res.status).toBe(201);
	return res.body.data[0].details.id;
}

async function editLead(id: string, company: string): Promise<void> {
	expect(
		(await crm.api('PUT', `/crm/v2.1/Leads/${id}`, { data: [{ Company: company }] })).status,
	).toBe(200);
}

/** the record GETs since the request log was last cleared */
const recordGets = async () =>
	(await crm.requests()).filter(
		(r) => r.method === 'GET' && r.url.startsWith('/crm/v2.1/Leads?ids='),
	);
/**
 * Runs the execution of `delivery` with every try of its record GetRecords failing (the transport
 * makes RETRY.tries, with the shipped back-off of 1, 2, 4, 8 s: ~15 s per call), and asserts that
 * it failed before the next node; the fault is gone afterwards.
 */
async function runWithRecordReadsFailing(
	x: Awaited<ReturnType<typeof published>>,
	delivery: IDataObject,
): Promise<IRun> {
	try {
		await setSandboxFault(crm.url, {
			status: 500,
			count: RETRY.tries,
			path_includes: '/crm/v2.1/Leads',
		});
		await crm.clearRequests();
		const answer = await x.request(delivery);
		expect(answer).toMatchObject({ status: 200 });
		const failed = (await x.execute(answer))!;
		expect((await recordGets()).map((r) => r.status)).toEqual(Array(RETRY.tries).fill(500));
		expect(failed.status).toBe('error');
		expect(x.nextRan(failed)).toBe(false);
		return failed;
	} finally {
		await clearSandboxFaults(crm.url);
	}
}

const edit = (id: string) => ({
	ids: [id],
	operation: 'update',
	affected_fields: [{ [id]: ['Company'] }],
});

describe('CRM Trigger › one change, one run', () => {
	test('webhook() makes no CRM call and reads no credential: n8n answers once the execution is stored and queued; execute() fetches the record', async () => {
		const x = await published({
			modules: ['Leads'],
			events: ['create', 'edit'],
			output: 'records',
		});
		const id = await createLead('Answer after queueing');
		await crm.clearRequests();
		// every credential read of the request path goes through the credentials helper
		const getDecrypted = crm.helper.getDecrypted.bind(crm.helper);
		let credentialReads = 0;
		crm.helper.getDecrypted = async (...args) => {
			credentialReads++;
			return await getDecrypted(...args);
		};
		const started = Date.now();
		let answer: Answer;
		try {
			answer = await x.request(x.body({ ids: [id], operation: 'insert' }));
		} finally {
			crm.helper.getDecrypted = getDecrypted;
		}
		const answerMs = Date.now() - started;
		expect(credentialReads).toBe(0);
		// the node did not answer itself: n8n answers 200 after it stored and queued the execution
		expect(answer.answeredBeforeAwait).toBe(false);
		expect(answer.result.noWebhookResponse).toBeUndefined();
		expect(answer.status).toBe(200);
		// no CRM call before the answer: the items come from the body alone
		expect((await crm.requests()).filter((r) => r.url.startsWith('/crm/'))).toHaveLength(0);
		const items = answer.result.workflowData![0];
		expect(items.map((i) => i.json)).toEqual([
			expect.objectContaining({ id, module: 'Leads', operation: 'create' }),
		]);
		expect(items[0].json.record).toBeUndefined();
		const run = (await x.execute(answer))!;
		expect(await recordGets()).toHaveLength(1);
		expect(x.emitted(run)[0].json).toMatchObject({
			id,
			operation: 'create',
			record: expect.objectContaining({ id, Last_Name: 'Answer after queueing' }),
		});
		expect(x.emitted(run)[0].json._crmChange).toBeUndefined();
		console.log(`trigger answer: webhook() returned in ${answerMs} ms with no CRM call`);
		await x.deactivate();
	});

	test("a copy that reaches another process (its latch never saw it) starts an execution that n8n's deduplication store stops", async () => {
		const x = await published({ modules: ['Leads'], events: ['create'] });
		const id = await createLead('Other process');
		const delivery = x.body({ ids: [id], operation: 'insert' });
		const first = (await x.execute(await x.request(delivery)))!;
		expect(x.emitted(first).map((i) => i.json.id)).toEqual([id]);
		// the same body in this process: 200, no execution
		const again = await x.request(delivery);
		expect(again).toMatchObject({ status: 200, body: { status: 'duplicate' } });
		expect(again.result.workflowData).toBeUndefined();
		// in a process whose latch never saw it: an execution that emits nothing and stops at the trigger
		latch.clear();
		const other = (await x.execute(await x.request(delivery)))!;
		expect(x.emitted(other)).toEqual([]);
		expect(other.status).toBe('success');
		expect(x.nextRan(other)).toBe(false);
		await x.deactivate();
	});

	test('n8n could not store the execution of a delivery (it answers 500): the re-send carries its changes, a create and an edit alike', async () => {
		const x = await published({
			modules: ['Leads'],
			events: ['create', 'edit'],
			output: 'records',
		});
		const id = await createLead('Store failed');
		const created = x.body({ ids: [id], operation: 'insert' });
		// webhook() passed the create on, n8n's database refused the execution: nothing ran
		const failed = await x.request(created, undefined, 500);
		expect(failed.result.workflowData![0].map((i) => i.json.id)).toEqual([id]);
		const resent = await x.request({ ...created, server_time: created.server_time + 2000 });
		const run = (await x.execute(resent))!;
		expect(x.emitted(run).map((i) => `${i.json.operation}:${i.json.id}`)).toEqual([`create:${id}`]);
		expect((x.emitted(run)[0].json.record as any).Last_Name).toBe('Store failed');

		await editLead(id, 'Edited, store failed');
		const edited = x.body(edit(id));
		expect((await x.request(edited, undefined, 500)).result.workflowData).toBeDefined();
		const editRun = (await x.execute(
			await x.request({ ...edited, server_time: edited.server_time + 2000 }),
		))!;
		expect(x.emitted(editRun).map((i) => (i.json.record as any).Company)).toEqual([
			'Edited, store failed',
		]);
		// and once n8n took it, a further re-send is a repeat: a create in webhook() already, an edit
		// (whose key needs the record's Modified_Time) in the execution, which stops at the trigger
		const againCreate = await x.request({ ...created, server_time: created.server_time + 4000 });
		expect(againCreate).toMatchObject({ status: 200, body: { status: 'duplicate' } });
		const againEdit = (await x.execute(
			await x.request({ ...edited, server_time: edited.server_time + 4000 }),
		))!;
		expect(x.emitted(againEdit)).toEqual([]);
		expect(x.nextRan(againEdit)).toBe(false);
		expect(x.runs.flatMap((r) => x.emitted(r))).toHaveLength(2);
		await x.deactivate();
	});

	test('a re-send that arrives while n8n is still storing the first request (the CRM stopped waiting) waits for n8n: taken, a repeat; refused, it carries the change', async () => {
		const x = await published({ modules: ['Leads'], events: ['create'], output: 'ids' });
		const settledWithin = async (answer: Promise<Answer>, ms: number) =>
			await Promise.race([answer.then(() => true), new Promise((r) => setTimeout(r, ms, false))]);

		for (const [name, n8nAnswers] of [
			['Stored late', 200],
			['Refused late', 500],
		] as const) {
			const id = await createLead(name);
			const delivery = x.body({ ids: [id], operation: 'insert' });
			const first = await x.request(delivery, undefined, 'later');
			expect(first.result.workflowData).toBeDefined();
			// the CRM gave up waiting and sends again, while n8n is still storing the first execution
			first.n8n('gone');
			const resend = x.request({ ...delivery, server_time: delivery.server_time + 10_000 });
			expect(await settledWithin(resend, 400)).toBe(false);
			first.n8n(n8nAnswers);
			const second = await resend;
			if (n8nAnswers === 200) {
				await x.execute(first);
				expect(second).toMatchObject({ status: 200, body: { status: 'duplicate' } });
				expect(second.result.workflowData).toBeUndefined();
			} else {
				const run = (await x.execute(second))!;
				expect(x.emitted(run).map((i) => i.json.id)).toEqual([id]);
			}
		}
		// each lead once: the first request's run for the one n8n stored, the re-send's for the other
		expect(x.runs.flatMap((r) => x.emitted(r)).map((i) => i.json.id)).toHaveLength(2);
		await x.deactivate();
	});

	test('two identical deliveries at the same moment start exactly one execution, every time (20 rounds)', async () => {
		const x = await published({ modules: ['Leads'], events: ['create', 'edit'], output: 'ids' });
		const changes: string[] = [];
		for (let round = 0; round < 20; round++) {
			const id = await createLead(`Twin ${round}`);
			// even rounds: a create, odd rounds: an edit (the same body twice: the same delivery key)
			if (round % 2 === 1) await editLead(id, `Twin Co ${round}`);
			const delivery = x.body(round % 2 === 1 ? edit(id) : { ids: [id], operation: 'insert' });
			// both requests load static data before either saves, as two requests at once do in n8n
			const answers = await Promise.all([x.request(delivery), x.request(delivery)]);
			expect(answers.map((a) => a.status)).toEqual([200, 200]);
			expect(answers.filter((a) => a.result.workflowData !== undefined)).toHaveLength(1);
			for (const a of answers) await x.execute(a);
			changes.push(`${round % 2 === 1 ? 'edit' : 'create'}:${id}`);
		}
		const emitted = x.runs.flatMap((r) =>
			x.emitted(r).map((i) => `${i.json.operation}:${i.json.id}`),
		);
		expect(x.runs).toHaveLength(20);
		expect(x.runs.every((r) => x.nextRan(r))).toBe(true);
		expect(emitted.sort()).toEqual([...changes].sort());
		console.log(
			`trigger concurrent copies: 20 rounds, 40 requests, ${x.runs.length} executions, ${new Set(emitted).size} distinct changes, ${emitted.length - new Set(emitted).size} doubled`,
		);
		await x.deactivate();
	});

	test('a re-sent delivery (new server_time), at the same moment as the first or after it, runs once; a later edit of the same record runs again', async () => {
		const x = await published({
			modules: ['Leads'],
			events: ['create', 'edit'],
			output: 'records',
		});
		const id = await createLead('Resent');
		const created = x.body({ ids: [id], operation: 'insert' });
		const createAnswers = await Promise.all([
			x.request(created),
			x.request({ ...created, server_time: created.server_time + 1500 }),
		]);
		// a create is known by its record id alone: the copy starts nothing
		expect(createAnswers.filter((a) => a.result.workflowData)).toHaveLength(1);
		for (const a of createAnswers) await x.execute(a);
		const resentCreate = await x.request({ ...created, server_time: created.server_time + 3000 });
		expect(resentCreate).toMatchObject({ status: 200, body: { status: 'duplicate' } });
		expect(resentCreate.result.workflowData).toBeUndefined();

		await editLead(id, 'First edit');
		const first = x.body(edit(id));
		const editAnswers = await Promise.all([
			x.request(first),
			x.request({ ...first, server_time: first.server_time + 1500 }),
		]);
		// an edit is known by the record's Modified_Time, which the execution reads: both start one,
		// and the second stops at the trigger
		expect(editAnswers.filter((a) => a.result.workflowData)).toHaveLength(2);
		const editRuns = [];
		for (const a of editAnswers) editRuns.push((await x.execute(a))!);
		expect(editRuns.map((r) => x.emitted(r).length)).toEqual([1, 0]);
		expect(editRuns.map((r) => x.nextRan(r))).toEqual([true, false]);
		expect(
			x.runs
				.flatMap((r) => x.emitted(r))
				.map((i) => `${i.json.operation}:${(i.json.record as any).Company ?? ''}`),
		).toEqual(['create:', 'edit:First edit']);

		// a later edit of the same field is another change (another Modified_Time): emitted
		// (Modified_Time has whole seconds of the sandbox clock: another second makes another change)
		await advanceSandboxClock(crm.url, 1000);
		await editLead(id, 'Second edit');
		const later = (await x.execute(await x.request(x.body(edit(id)))))!;
		expect(x.emitted(later).map((i) => (i.json.record as any).Company)).toEqual(['Second edit']);
		expect(x.runs.filter((r) => x.nextRan(r))).toHaveLength(3);
		await x.deactivate();
	});

	test('two edits of the same record: two runs when each is handled before the next edit; one run with the latest record when both are handled after it', async () => {
		const x = await published({ modules: ['Leads'], events: ['edit'], output: 'records' });
		const id = await createLead('Edited twice');
		await editLead(id, 'One');
		const one = await x.execute(await x.request(x.body(edit(id))));
		// Modified_Time has whole seconds (of the sandbox clock)
		await advanceSandboxClock(crm.url, 1000);
		await editLead(id, 'Two');
		const two = await x.execute(await x.request(x.body(edit(id))));
		expect([one, two].map((r) => x.emitted(r!).map((i) => (i.json.record as any).Company))).toEqual(
			[['One'], ['Two']],
		);

		// both deliveries reach n8n before the first execution reads the record: the record's state
		// then is one change, emitted once, by whichever execution reads it first
		await advanceSandboxClock(crm.url, 1000);
		await editLead(id, 'Three');
		const third = await x.request(x.body(edit(id)));
		await advanceSandboxClock(crm.url, 1000);
		await editLead(id, 'Four');
		const fourth = await x.request(x.body(edit(id)));
		const late = [(await x.execute(third))!, (await x.execute(fourth))!];
		expect(late.map((r) => x.emitted(r).map((i) => (i.json.record as any).Company))).toEqual([
			['Four'],
			[],
		]);
		await x.deactivate();
	});

	test('a record fetch that fails in the execution claims nothing: the execution fails with the CRM error, and the change runs when it comes again', async () => {
		const x = await published({ modules: ['Leads'], events: ['edit'], output: 'records' });
		const id = await createLead('Fetch fails');
		await editLead(id, 'Unfetched');
		const delivery = x.body(edit(id));
		const failed = await runWithRecordReadsFailing(x, delivery);
		expect(failed.data.resultData.error?.message).toMatch(/500|internal/i);
		// the same change again (a re-send, or the catch-up's read of it): nothing was claimed, so it runs
		const again = (await x.execute(
			await x.request({ ...delivery, server_time: delivery.server_time + 1500 }),
		))!;
		expect(x.emitted(again).map((i) => (i.json.record as any)?.Company)).toEqual(['Unfetched']);
		expect(x.nextRan(again)).toBe(true);
		await x.deactivate();
	});

	test("a delivered create whose Full Records fetch fails claims nothing either: a copy on another process (or the catch-up's read) runs it", async () => {
		const x = await published({ modules: ['Leads'], events: ['create'], output: 'records' });
		const id = await createLead('Create unfetched');
		const delivery = x.body({ ids: [id], operation: 'insert' });
		await runWithRecordReadsFailing(x, delivery);
		// a copy that reaches another n8n process (its latch never saw the create)
		latch.clear();
		const again = (await x.execute(
			await x.request({ ...delivery, server_time: delivery.server_time + 1500 }),
		))!;
		expect(x.emitted(again).map((i) => (i.json.record as any)?.Last_Name)).toEqual([
			'Create unfetched',
		]);
		expect(x.nextRan(again)).toBe(true);
		await x.deactivate();
	});

	test('another execution of the same change emits nothing; a Retry from the executions list emits it again', async () => {
		const x = await published({ modules: ['Leads'], events: ['create'] });
		const id = await createLead('Re-run');
		const answer = await x.request(x.body({ ids: [id], operation: 'insert' }));
		const items = answer.result.workflowData![0];
		const first = await runProduction(crm, [x.node], items, {}, '7000001');
		const other = await runProduction(crm, [x.node], items, {}, '7000002');
		expect([first, other].map((r) => x.emitted(r).map((i) => i.json.id))).toEqual([[id], []]);
		// Retry from the executions list (new id, mode 'retry') of an execution that died after its
		// claim: the user asked for the run again, so the change is emitted again
		const retried = await runProduction(crm, [x.node], items, {}, '7000003', 'retry');
		expect(x.emitted(retried).map((i) => i.json.id)).toEqual([id]);
		await x.deactivate();
	});

	test('a Retry of an execution n8n failed before it ran emits only what no execution emitted since: a change the catch-up or a copy ran is not run again', async () => {
		const x = await published({ modules: ['Leads'], events: ['create'] });
		const [ran, waited] = [await createLead('Ran since'), await createLead('Still waiting')];
		const body = x.body({ ids: [ran, waited], operation: 'insert' });
		// stored and queued, then failed by n8n before a worker ran it (its trigger claimed nothing)
		const never = (await x.request(body)).result.workflowData![0];
		// meanwhile another execution emitted one of its changes (a copy on another n8n process)
		latch.clear();
		const copy = (await x.request(x.body({ ids: [ran], operation: 'insert' }))).result
			.workflowData![0];
		const other = await runProduction(crm, [x.node], copy, {}, '7000011');
		expect(x.emitted(other).map((i) => i.json.id)).toEqual([ran]);
		const retried = await runProduction(crm, [x.node], never, {}, '7000012', 'retry');
		expect(x.emitted(retried).map((i) => i.json.id)).toEqual([waited]);
		expect(x.emitted(retried)[0].json).not.toHaveProperty('_crmRun');
		// and it claimed what it emitted: a later copy of the delivery starts nothing more
		latch.clear();
		const late = (await x.request(body)).result.workflowData![0];
		const again = await runProduction(crm, [x.node], late, {}, '7000013');
		expect(x.emitted(again)).toEqual([]);
		await x.deactivate();
	});

	test('the latch keeps every key of its window whatever the burst: after 6,000 changes a copy of the first delivery still starts nothing', async () => {
		const x = await published({ modules: ['Leads'], events: ['create'] });
		// record ids the CRM would list (the latch and the answer path need no record behind them)
		const ids = Array.from({ length: 6000 }, (_, i) => `48768760000${String(10_000_000 + i)}`);
		const deliveries = [];
		for (let i = 0; i < ids.length; i += 100)
			deliveries.push(x.body({ ids: ids.slice(i, i + 100), operation: 'insert' }));
		for (const d of deliveries) expect((await x.request(d)).result.workflowData).toBeDefined();
		const copy = await x.request(deliveries[0]);
		expect(copy).toMatchObject({ status: 200, body: { status: 'duplicate' } });
		// a re-send of it (its own server_time) too: every create key is still held
		const resent = await x.request({ ...deliveries[0], server_time: Date.now() });
		expect(resent).toMatchObject({ status: 200, body: { status: 'duplicate' } });
		await x.deactivate();
	});

	test('genuine but malformed deliveries get a clear 400 and never an exception or an execution', async () => {
		const x = await published({ modules: ['Leads'], events: ['create'] });
		const good = { ids: ['4876876000000611001'], operation: 'insert' };
		const cases: Array<[string, IDataObject, RegExp]> = [
			['affected_fields not a list', { ...good, affected_fields: { a: 1 } }, /affected_fields/],
			[
				'affected_fields entry not a map of lists',
				{ ...good, affected_fields: [{ '1': 'Company' }] },
				/affected_fields/,
			],
			['server_time out of range', { ...good, server_time: 1e20 }, /server_time/],
			['server_time a string', { ...good, server_time: '1718117126473' }, /server_time/],
			['server_time missing', { ...good, server_time: undefined }, /server_time/],
			['ids not a list', { ...good, ids: '4876876000000611001' }, /ids/],
			['ids not record IDs', { ...good, ids: [{ id: 1 }] }, /ids/],
			['module a number', { ...good, module: 42 }, /module/],
			['operation unknown', { ...good, operation: 'upsert' }, /operation/],
			['operation a list', { ...good, operation: ['insert'] }, /operation/],
			[
				'affected_values malformed',
				{ ...good, affected_values: [{ values: 'x' }] },
				/affected_values/,
			],
			['query_params a string', { ...good, query_params: 'wf=1' }, /query_params/],
		];
		for (const [what, extra, names] of cases) {
			const answer = await x.request(x.body(extra));
			expect({
				what,
				status: answer.status,
				answeredBeforeAwait: answer.answeredBeforeAwait,
			}).toEqual({ what, status: 400, answeredBeforeAwait: true });
			expect(String(answer.body)).toMatch(/^Malformed delivery: /);
			expect(String(answer.body)).toMatch(names);
			expect(answer.result.workflowData).toBeUndefined();
		}
		console.log(`trigger malformed deliveries answered 400: ${cases.length}`);
		await x.deactivate();
	});

	test('a delivery whose server_time is outside the freshness window is refused as stale (400); the window is an option', async () => {
		const x = await published({ modules: ['Leads'], events: ['create'] });
		const id = await createLead('Stale');
		for (const offset of [-11 * 60_000, 11 * 60_000]) {
			const answer = await x.request(
				x.body({ ids: [id], operation: 'insert', server_time: Date.now() + offset }),
			);
			expect(answer.status).toBe(400);
			expect(String(answer.body)).toMatch(
				/^Stale delivery: server_time .* is more than 10 minutes from now$/,
			);
			expect(answer.result.workflowData).toBeUndefined();
		}
		// inside the window: accepted
		expect(
			(
				await x.request(
					x.body({ ids: [id], operation: 'insert', server_time: Date.now() - 9 * 60_000 }),
				)
			).status,
		).toBe(200);
		await x.deactivate();

		const loose = await published({
			modules: ['Leads'],
			events: ['create'],
			options: { freshnessMinutes: 0 },
		});
		const old = await loose.request(
			loose.body({ ids: [id], operation: 'insert', server_time: Date.now() - 24 * 3600_000 }),
		);
		expect(old.status).toBe(200);
		expect(old.result.workflowData).toBeDefined();
		await loose.deactivate();
	});
});
