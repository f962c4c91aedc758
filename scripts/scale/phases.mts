// The phases of the scale run (steady, the faults, the burst): changes made through the sandbox's
// API, each phase settled against n8n's executions; then the polling trigger's catch-up and the
// retries of the executions lost with the killed worker.
import { OWNER } from '../start.mts';
import { executions, readExecutions, tally, workerRuns } from './executions.mts';
import type { Change, Tally } from './executions.mts';
import { sampleMemory, waitReady } from './n8n.mts';
import { countBy, formatCounts, refusalsByOperation } from './observe.mts';
import type { TokenCall } from './observe.mts';
import {
	ALL_DOWN_MS,
	BURST,
	CATCH_UP_PATIENCE_MS,
	CREATE_BATCH,
	FAULTS,
	FAULT_PHASE_PACE_MS,
	INSTANT,
	P,
	PACED,
	PHASE,
	PHASE_SETTLE_CAP_MS,
	POLL_PATIENCE_MS,
	STALLED,
	STARVED_MS,
	UPDATE_BATCH,
	WF,
	log,
	secs,
	sleep,
} from './options.mts';
import type { PollingEmit } from './polling.mts';
import { interrupted, stopProc, waitFor } from './processes.mts';
import type { QueueStack } from './stack.mts';

/** The phases, then the polling trigger's catch-up and the retries of crashed executions. */
export async function runPhases(stack: QueueStack) {
	const {
		api,
		burstUpdates,
		channels,
		createsTotal,
		crm,
		dealIds,
		deliveriesOf,
		folder,
		mainArgs,
		mintToken,
		pg,
		pollCallStarts,
		proxy,
		publishStart,
		sandboxUrl,
		sb,
		setCrmToken,
		sharedUpdates,
		startN8n,
		tokenCalls,
		webhook2Args,
		webhookArgs,
		worker1,
		workerArgs,
		workerEnv,
		workers,
	} = stack;
	// the polling trigger's publishing poll sets its cursor to "now" (nothing before it is emitted).
	// The changes start right after it: with n8n's scheduler that poll's node static data is not
	// kept, so the deals changed before the first scheduled poll test where the node starts from then.
	// The publishing poll's calls are those until none has started for 2 s: a fixed wait after its
	// first call counted a slow publishing poll's last calls as the first scheduled poll's.
	await waitFor("the polling trigger's publishing poll (a COQL call)", 180_000, async () =>
		pollCallStarts.length > 0 ? true : undefined,
	);
	await waitFor('the end of the publishing poll (no COQL call for 2 s)', 60_000, () =>
		Date.now() - pollCallStarts[pollCallStarts.length - 1] >= 2000 ? true : undefined,
	);
	const publishingPollCalls = pollCallStarts.length;
	log(
		`all three workflows published; watch channels ${channels.map((c) => `${c.events.join('+')} → ${new URL(c.notify_url).host}`).join(', ')}; ready in ${secs(Date.now() - publishStart)} s`,
	);

	// ---- phases ----
	const changes: Change[] = [];
	const deliveries = () => deliveriesOf(sb.sandbox)?.log ?? [];
	const phases = FAULTS
		? [
				'steady',
				'kill -9 of worker-1 (replacement worker-3 started)',
				'restart of the webhook process',
				'delivery faults (lost answers, duplicates)',
				'access token expired mid-burst (token issuance limits on)',
				'two webhook processes behind the round-robin proxy (duplicate and concurrent-duplicate deliveries)',
				'kill -9 of main during a poll (main restarted)',
				'kill -9 of the webhook process mid-burst (restarted)',
				`every n8n process down for ${ALL_DOWN_MS / 1000} s while the changes go on`,
				`the webhook process starved past the CRM's timeout (stopped for ${STARVED_MS / 1000} s)`,
			]
		: Array.from({ length: 10 }, () => 'steady');
	if (BURST > 0)
		phases.push(
			`a burst of ${BURST} deliveries of ${UPDATE_BATCH} deal edits at once (duplicate and concurrent-duplicate deliveries)`,
		);
	/** the phases among which --changes is shared (the burst phase's changes come on top) */
	const sharedPhases = BURST > 0 ? phases.length - 1 : phases.length;
	const phaseResults: Array<{
		name: string;
		tally: Tally;
		sendMs: number;
		deliveries: any[];
		note: string;
		settledMs: number;
		refusals: Map<string, number>;
		tokenCalls: TokenCall[];
	}> = [];
	let dealCursor = 0;
	let tokenExpiredAt = 0;
	let leadCounter = 0;
	const STAGES = [
		'Needs Analysis',
		'Value Proposition',
		'Identify Decision Makers',
		'Proposal/Price Quote',
	];

	for (let phase = 0; phase < phases.length; phase++) {
		const name = phases[phase];
		const burst = phase === PHASE.burst;
		const share = (total: number) =>
			Math.floor(total / sharedPhases) + (phase < total % sharedPhases ? 1 : 0);
		const updates = burst ? burstUpdates : share(sharedUpdates);
		const creates = burst ? 0 : share(createsTotal);
		const batches: Array<{ kind: 'update' | 'create'; size: number }> = [];
		const updateBatches = Math.ceil(updates / UPDATE_BATCH);
		const createBatches = Math.ceil(creates / CREATE_BATCH);
		const createBatch = (c: number) => ({
			kind: 'create' as const,
			size: Math.min(CREATE_BATCH, creates - c * CREATE_BATCH),
		});
		let c = 0;
		for (let u = 0; u < updateBatches; u++) {
			batches.push({ kind: 'update', size: Math.min(UPDATE_BATCH, updates - u * UPDATE_BATCH) });
			// the creates are spread over the phase
			while (c < createBatches && c < Math.round(((u + 1) * createBatches) / updateBatches))
				batches.push(createBatch(c++));
		}
		while (c < createBatches) batches.push(createBatch(c++));
		const firstDelivery = deliveries().length
			? deliveries()[deliveries().length - 1].delivery_id
			: 0;
		const firstRequest = sb.sandbox.requests.length;
		const firstTokenCall = tokenCalls.length;
		let note = '';
		let faultDone: Promise<void> = Promise.resolve();
		const faultPlan = async (plan: Record<string, unknown>) =>
			await fetch(`${sandboxUrl}/__sandbox/fault-plan`, {
				method: 'PUT',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(plan),
			});
		if (FAULTS && phase === PHASE.faults) {
			// the CRM's own answer timeout (10 s, docs/protocol.md §9.5): a shorter one measures how fast
			// n8n reads a request under a burst on this machine (n8n drops a request whose body the CRM
			// stopped sending before webhook() runs), not the package
			await faultPlan({
				lostResponseRate: 0.15,
				duplicateDeliveryRate: 0.1,
				concurrentDuplicateRate: 0.1,
				seed: 7,
			});
		}
		if (FAULTS && phase === PHASE.killMain) {
			// the polling trigger's COQL calls answer 4 s late, so that main can be killed inside a poll
			await faultPlan({ delayMs: 4000, pathIncludes: '/coql' });
		}
		if (FAULTS && phase === PHASE.twoWebhooks) {
			proxy.backends = [P.webhook, P.webhook2];
			proxy.forwarded.clear();
			await faultPlan({ duplicateDeliveryRate: 0.25, concurrentDuplicateRate: 0.25, seed: 11 });
		}
		if (burst) {
			// copies on top of the CRM's single attempts: a copy of a burst's delivery starts nothing
			await faultPlan({ duplicateDeliveryRate: 0.1, concurrentDuplicateRate: 0.1, seed: 13 });
		}
		log(
			`phase ${phase + 1}/${phases.length} — ${name}: ${updates} deal updates (${updateBatches} requests) + ${creates} lead creates (${createBatches} requests)`,
		);
		const phaseChanges: Change[] = [];
		const sendStart = Date.now();
		const faultAt = Math.max(1, Math.floor(batches.length * 0.3));
		const inFlight = () => {
			const runs = workerRuns([worker1]).get('worker-1')!;
			return [...runs.started].filter((id) => !runs.finished.has(id));
		};
		let killed = false;
		const killWorker = (running: number[]) => {
			// kill -9 while worker-1 has executions in flight, then start a replacement
			killed = true;
			process.kill(-worker1.pid, 'SIGKILL');
			const killedAt = Date.now();
			note = `kill -9 of worker-1 with ${running.length} execution(s) in flight (${running.join(', ') || 'none'})`;
			log(`  ${note}`);
			const worker3 = startN8n('worker-3', 'worker', workerArgs, workerEnv(2), folder('worker-3'));
			workers.push(worker3);
			faultDone = waitReady(worker3).then(() => {
				note += `; worker-3 ready ${secs(Date.now() - killedAt)} s after the kill`;
				log(`  worker-3 ready ${secs(Date.now() - killedAt)} s after the kill`);
			});
		};
		for (let b = 0; b < batches.length; b++) {
			if (interrupted) throw new Error('interrupted');
			if (FAULTS && phase === PHASE.kill && !killed && b >= faultAt) {
				const running = inFlight();
				if (running.length > 0) killWorker(running);
			}
			if (FAULTS && b === faultAt && phase === PHASE.token) {
				// every access token n8n holds stops working at once, in the middle of the burst
				const res = await fetch(`${sandboxUrl}/__sandbox/tokens/expire`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: '{}',
				});
				const { expired } = (await res.json()) as { expired: number };
				setCrmToken(await mintToken());
				tokenExpiredAt = Date.now();
				note = `${expired} access token(s) expired at request ${b + 1} of ${batches.length}`;
				log(`  ${note}`);
			}
			if (FAULTS && b === faultAt && phase === PHASE.restart) {
				const restartAt = Date.now();
				log('  restarting the webhook process (SIGTERM, then a new `n8n webhook`)…');
				faultDone = (async () => {
					await stopProc(stack.webhook);
					const downAt = Date.now();
					stack.webhook = startN8n(...webhookArgs);
					await waitReady(stack.webhook);
					note = `webhook process stopped in ${secs(downAt - restartAt)} s, back ${secs(Date.now() - restartAt)} s after SIGTERM`;
					log(`  ${note}`);
				})();
			}
			if (FAULTS && b === faultAt && phase === PHASE.killWebhook) {
				// a crash: the CRM's deliveries in flight and until the new process listens are gone (sent once)
				const killedAt = Date.now();
				process.kill(-stack.webhook.pid, 'SIGKILL');
				log('  kill -9 of the webhook process; starting a new one…');
				faultDone = (async () => {
					stack.webhook = startN8n(...webhookArgs);
					await waitReady(stack.webhook);
					note = `kill -9 of the webhook process at request ${b + 1} of ${batches.length}; a new one ready ${secs(Date.now() - killedAt)} s later`;
					log(`  ${note}`);
				})();
			}
			if (FAULTS && b === 0 && phase === PHASE.allDown) {
				const downAt = Date.now();
				log(`  stopping every n8n process for ${ALL_DOWN_MS / 1000} s…`);
				const live = [stack.mainProc, stack.webhook, stack.webhook2, ...workers].filter(
					(p) => !p.exited,
				);
				await Promise.all(live.map((p) => stopProc(p)));
				faultDone = (async () => {
					await sleep(Math.max(0, downAt + ALL_DOWN_MS - Date.now()));
					const upAt = Date.now();
					stack.mainProc = startN8n(...mainArgs);
					stack.webhook = startN8n(...webhookArgs);
					stack.webhook2 = startN8n(...webhook2Args);
					const restarted = live
						.filter((p) => p.role === 'worker')
						.map((p, i) =>
							startN8n(`${p.name}-again`, 'worker', workerArgs, workerEnv(i), p.folder),
						);
					workers.push(...restarted);
					await Promise.all(
						[stack.mainProc, stack.webhook, stack.webhook2, ...restarted].map((p) => waitReady(p)),
					);
					await api.login(OWNER.email, OWNER.password);
					note = `every n8n process (${live.map((p) => p.name).join(', ')}) down ${secs(upAt - downAt)} s; all ready again ${secs(Date.now() - upAt)} s after the restart`;
					log(`  ${note}`);
				})();
			}
			if (FAULTS && b === faultAt && phase === PHASE.starved) {
				// the webhook process gets no CPU past the CRM's timeout (as under a starving burst): its
				// connections are accepted by the kernel, then answered late or never
				process.kill(-stack.webhook.pid, 'SIGSTOP');
				log(`  webhook process stopped (SIGSTOP) for ${STARVED_MS / 1000} s…`);
				faultDone = (async () => {
					await sleep(STARVED_MS);
					process.kill(-stack.webhook.pid, 'SIGCONT');
					note = `webhook process stopped (SIGSTOP) for ${STARVED_MS / 1000} s at request ${b + 1} of ${batches.length}`;
					log(`  ${note}`);
				})();
			}
			// the fault phases pace their requests, so that deliveries keep arriving while the fault happens
			if (FAULTS && PACED.includes(phase) && b > 0) await sleep(FAULT_PHASE_PACE_MS);
			// with every process down, the phase's changes are spread over the time they are down
			if (FAULTS && phase === PHASE.allDown && b > 0)
				await sleep(ALL_DOWN_MS / (batches.length + 1));
			const batch = batches[b];
			if (batch.kind === 'update') {
				const ids = dealIds.slice(dealCursor, dealCursor + batch.size);
				dealCursor += batch.size;
				const stage = STAGES[phase % STAGES.length];
				const res = await crm('PUT', '/Deals', {
					data: ids.map((id) => ({ id, Stage: stage, Description: `scale phase ${phase + 1}` })),
				});
				const at = Date.now();
				if (res.status !== 200)
					throw new Error(
						`updating deals answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
					);
				for (const item of res.body.data) {
					if (item.status !== 'success')
						throw new Error(`deal update refused: ${JSON.stringify(item)}`);
					phaseChanges.push({
						id: String(item.details.id),
						module: 'Deals',
						time: item.details.Modified_Time,
						at,
						phase,
					});
				}
			} else {
				const data = Array.from({ length: batch.size }, () => ({
					Last_Name: `Scale lead ${++leadCounter}`,
					Company: 'Scale Co',
					Email: `lead${leadCounter}@scale.example`,
				}));
				const res = await crm('POST', '/Leads', { data });
				const at = Date.now();
				if (res.status !== 201)
					throw new Error(
						`creating leads answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
					);
				for (const item of res.body.data)
					phaseChanges.push({
						id: String(item.details.id),
						module: 'Leads',
						time: item.details.Created_Time,
						at,
						phase,
					});
			}
		}
		const sendMs = Date.now() - sendStart;
		changes.push(...phaseChanges);
		if (FAULTS && phase === PHASE.kill && !killed) {
			// the changes went in faster than worker-1 picked up work: kill it at its first execution in flight
			killWorker(
				await waitFor('worker-1 to run an execution', 30_000, () =>
					inFlight().length > 0 ? inFlight() : undefined,
				).catch(() => []),
			);
		}
		log(
			`  ${phaseChanges.length} changes made in ${secs(sendMs)} s (${(phaseChanges.length / (sendMs / 1000)).toFixed(0)} changes/s through the sandbox API); waiting for n8n…`,
		);
		if (FAULTS && phase === PHASE.killMain) {
			faultDone = (async () => {
				// the first poll that reads this phase's changes: kill main 1 s into its first COQL call
				const since = Date.now();
				const began = await waitFor('a poll of the polling trigger', 90_000, () =>
					pollCallStarts.find((t) => t >= since),
				);
				await sleep(Math.max(0, began + 1000 - Date.now()));
				process.kill(-stack.mainProc.pid, 'SIGKILL');
				const killedAt = Date.now();
				await fetch(`${sandboxUrl}/__sandbox/fault-plan`, { method: 'DELETE' });
				log(
					`  kill -9 of main ${secs(killedAt - began)} s into a poll (its COQL call still unanswered); restarting main…`,
				);
				stack.mainProc = startN8n(...mainArgs);
				await waitReady(stack.mainProc);
				await api.login(OWNER.email, OWNER.password);
				note = `kill -9 of main ${secs(killedAt - began)} s into a poll; main ready again ${secs(Date.now() - killedAt)} s later`;
				log(`  ${note}`);
			})();
		}
		await faultDone;

		// settled: every delivery answered or given up, nothing in progress in n8n, and every change seen (or no progress)
		const settleStart = Date.now();
		let lastProgress = Date.now();
		let lastSeen = -1;
		let lastRuns = -1;
		for (;;) {
			await readExecutions(pg);
			const phaseDeliveries = deliveries().filter((d) => d.delivery_id > firstDelivery);
			const pending = phaseDeliveries.filter((d) => d.outcome === 'pending' || d.duplicates).length;
			const inProgress = [...executions.values()].filter((e) =>
				['new', 'running', 'waiting'].includes(e.status),
			).length;
			// seen: in a successful execution, as the tally counts; an execution n8n failed before it
			// ran (e.g. marked crashed by its queue recovery) holds records whose changes the catch-up
			// still has to bring
			const seen = new Set<string>();
			let runs = 0;
			for (const e of executions.values())
				if (INSTANT.has(e.workflowId)) {
					runs++;
					if (e.status === 'success') for (const id of e.records.keys()) seen.add(id);
				}
			const seenCount = phaseChanges.filter((c) => seen.has(c.id)).length;
			// progress is a change seen or any new CRM Trigger execution: a catch-up behind a backlog
			// (after main's restart) re-reads changes already delivered, one execution of 1,000 at a time,
			// before it reaches this phase's lost ones; and it reads the watched streams in turn
			if (seenCount !== lastSeen || runs !== lastRuns) {
				lastSeen = seenCount;
				lastRuns = runs;
				lastProgress = Date.now();
			}
			const all = seenCount === phaseChanges.length;
			// a change whose delivery was lost comes with the catch-up: give it its minute, and a minute more
			if (
				pending === 0 &&
				inProgress === 0 &&
				(all || Date.now() - lastProgress > CATCH_UP_PATIENCE_MS)
			)
				break;
			if (Date.now() - settleStart > PHASE_SETTLE_CAP_MS) {
				log(
					`  not settled after ${secs(PHASE_SETTLE_CAP_MS)} s: ${pending} deliveries pending, ${inProgress} executions in progress, ${seenCount}/${phaseChanges.length} changes seen`,
				);
				break;
			}
			await sleep(1000);
		}
		if ((FAULTS && (phase === PHASE.faults || phase === PHASE.twoWebhooks)) || burst) {
			const plan = (await (
				await fetch(`${sandboxUrl}/__sandbox/fault-plan`, { method: 'DELETE' })
			).json()) as { stats: Record<string, number> };
			const s = plan.stats;
			note = `injected: ${s.lostResponses} answers lost, ${s.duplicatedDeliveries} duplicates after the first, ${s.concurrentDuplicates} concurrent duplicates`;
			if (phase === PHASE.twoWebhooks)
				note += `; proxy sent ${[...proxy.forwarded].map(([port, n]) => `${n} to :${port}`).join(', ')}`;
			proxy.backends = [P.webhook];
		}
		const phaseDeliveries = deliveries().filter((d) => d.delivery_id > firstDelivery);
		const result = {
			name,
			tally: tally(phaseChanges),
			sendMs,
			deliveries: phaseDeliveries,
			note,
			settledMs: Date.now() - settleStart,
			refusals: refusalsByOperation(sb.sandbox.requests.slice(firstRequest)),
			tokenCalls: tokenCalls.slice(firstTokenCall),
		};
		phaseResults.push(result);
		const r = result.tally;
		log(
			`  settled in ${secs(result.settledMs)} s: lost ${r.lost}${r.lostInFailed ? ` (${r.lostInFailed} in executions that did not succeed)` : ''}, doubled ${r.doubled}, record time mismatched ${r.mismatched}`,
		);
		log(
			`  429s answered to n8n: ${formatCounts(result.refusals)}; token calls: ${formatCounts(countBy(result.tokenCalls, (c) => `${c.process} ${c.grant}${c.error ? ` (${c.error})` : ''}`))}`,
		);
	}

	// the polling trigger: each deal's last change must reach one polling execution (scale/polling.mts)
	const finals = new Map<string, { time: string; at: number }>();
	for (const c of changes) if (c.module === 'Deals') finals.set(c.id, { time: c.time, at: c.at });
	const pollingEmits = (): PollingEmit[] => {
		const list: PollingEmit[] = [];
		for (const e of executions.values()) {
			if (e.workflowId !== WF.polling.id || e.status !== 'success') continue;
			for (const [id, time] of e.records) list.push({ execution: e.id, id, time: String(time) });
			for (const key of e.repeats ?? [])
				list.push({
					execution: e.id,
					id: key.slice(0, key.lastIndexOf('|')),
					time: key.slice(key.lastIndexOf('|') + 1),
				});
		}
		return list;
	};
	// the deals whose last change was made before the first scheduled poll began
	const firstScheduledPoll = pollCallStarts[publishingPollCalls];
	const beforeFirstPoll = [...finals]
		.filter(([, f]) => firstScheduledPoll === undefined || f.at < firstScheduledPoll)
		.map(([id]) => id);
	const pollingWaitStart = Date.now();
	let pollingSeen = -1;
	let pollingProgress = Date.now();
	for (;;) {
		await readExecutions(pg);
		const emitted = new Set(pollingEmits().map((e) => `${e.id}|${e.time}`));
		const seen = [...finals].filter(([id, f]) => emitted.has(`${id}|${f.time}`)).length;
		const busy = [...executions.values()].some(
			(e) => e.workflowId === WF.polling.id && ['new', 'running', 'waiting'].includes(e.status),
		);
		if (seen !== pollingSeen) {
			pollingSeen = seen;
			pollingProgress = Date.now();
		}
		if (!busy && (seen === finals.size || Date.now() - pollingProgress > POLL_PATIENCE_MS)) break;
		if (Date.now() - pollingWaitStart > 2 * POLL_PATIENCE_MS) {
			log(
				`  polling not caught up after ${secs(Date.now() - pollingWaitStart)} s: ${seen}/${finals.size} deals' last changes emitted`,
			);
			break;
		}
		await sleep(2000);
	}
	log(
		`polling trigger caught up ${secs(Date.now() - pollingWaitStart)} s after the last phase: ${pollingSeen}/${finals.size} deals' last changes emitted`,
	);

	// executions lost with the killed worker are not re-run by n8n; an operator retries them: do that through the REST API
	await readExecutions(pg);
	// the executions lost with the killed worker: those it had started (its log), and those n8n failed
	// as stalled jobs (a job the worker had taken but not yet started counts too)
	const killedIds = new Set<number>();
	const w1Runs = workerRuns([worker1]).get('worker-1')!;
	for (const id of w1Runs.started) if (!w1Runs.finished.has(id)) killedIds.add(id);
	for (const e of executions.values())
		if (!e.retryOf && (e.status === 'crashed' || STALLED.test(e.error ?? ''))) killedIds.add(e.id);
	const crashed = [...executions.values()].filter(
		(e) => e.status !== 'success' && !e.retryOf && (e.status === 'crashed' || killedIds.has(e.id)),
	);
	const retried: Array<{ id: number; status: number; newId?: string }> = [];
	if (crashed.length) {
		log(
			`retrying ${crashed.length} crashed execution(s) through n8n's REST API (POST /rest/executions/<id>/retry)…`,
		);
		for (const e of crashed) {
			const res = await api.request<any>('POST', `/rest/executions/${e.id}/retry`, {
				loadWorkflow: false,
			});
			retried.push({
				id: e.id,
				status: res.status,
				newId: res.data?.id ?? (typeof res.data === 'string' ? res.data : undefined),
			});
			if (res.status !== 200)
				log(`  retry of ${e.id} answered ${res.status}: ${JSON.stringify(res.data).slice(0, 300)}`);
		}
		await waitFor('the retried executions', 120_000, async () => {
			await readExecutions(pg);
			const retries = [...executions.values()].filter((e) => e.retryOf);
			const busy = retries.filter((e) => ['new', 'running', 'waiting'].includes(e.status));
			return retries.length >= retried.filter((r) => r.status === 200).length && busy.length === 0
				? true
				: undefined;
		}).catch((error) => log(`  ${String(error)}`));
	}
	await readExecutions(pg);
	sampleMemory();

	return {
		publishingPollCalls,
		changes,
		deliveries,
		phaseResults,
		tokenExpiredAt,
		finals,
		pollingEmits,
		beforeFirstPoll,
		killedIds,
		retried,
	};
}

export type PhaseRun = Awaited<ReturnType<typeof runPhases>>;
