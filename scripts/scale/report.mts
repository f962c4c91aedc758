// The report of the scale run: results per phase, latency, the §7 limits, tokens, the polling
// trigger, memory, and every check.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { N8N_VERSION, PACKAGE_NAME, REPO } from '../n8n-runtime.mts';
import { check } from './checks.mts';
import { executions, tally, workerRuns } from './executions.mts';
import type { Execution } from './executions.mts';
import { peaks } from './n8n.mts';
import { countBy, formatCounts, percentile, refusalsByOperation } from './observe.mts';
import {
	API_EDITION,
	DURABLE_CURSORS,
	FAULTS,
	INSTANT,
	LEAD_NOTE,
	PHASE,
	RUN_DIR,
	TOO_MANY,
	WF,
	secs,
	started,
} from './options.mts';
import type { PhaseRun } from './phases.mts';
import { tallyPolling } from './polling.mts';
import { procs, readFrom } from './processes.mts';
import type { QueueStack } from './stack.mts';

/** The results of the phases and every check, printed. */
export async function report(stack: QueueStack, run: PhaseRun): Promise<void> {
	const {
		crm,
		installed,
		leadWrites,
		pg,
		pgInfo,
		pollCallStarts,
		redis,
		sandboxUrl,
		sb,
		tokenCalls,
		workers,
	} = stack;
	const {
		beforeFirstPoll,
		changes,
		deliveries,
		finals,
		killedIds,
		phaseResults,
		pollingEmits,
		publishingPollCalls,
		retried,
		tokenExpiredAt,
	} = run;
	// ---- report ----
	console.log('\n──────── test:scale results ────────');
	console.log(
		`n8n ${N8N_VERSION}, queue mode: main + 2 webhook processes + 2 workers (concurrency 5) · PostgreSQL ${pgInfo.version} · Redis ${redis.version} · ` +
			`${PACKAGE_NAME}@${installed[0].version} installed in every user folder · Node ${process.versions.node}`,
	);
	const all = tally(changes);
	for (const [i, r] of phaseResults.entries()) {
		const d = r.deliveries;
		const attempts = d.reduce((n: number, x: any) => n + x.attempts.length, 0);
		const failedDeliveries = d.filter(
			(x: any) => x.outcome === 'failed' || x.outcome === 'dropped',
		).length;
		const dur = r.tally.lastFinished - r.tally.firstChange;
		console.log(
			`phase ${i + 1} ${r.name}: ${r.tally.changes} changes (sent in ${secs(r.sendMs)} s), ${d.length} deliveries / ${attempts} POSTs (${failedDeliveries} given up); ` +
				`lost ${r.tally.lost}, doubled ${r.tally.doubled}; ${(r.tally.changes / (dur / 1000)).toFixed(1)} changes/s end to end; ` +
				`latency p50 ${secs(percentile(r.tally.latencies, 50))} s, p95 ${secs(percentile(r.tally.latencies, 95))} s${r.note ? `\n    ${r.note}` : ''}`,
		);
		// how n8n answered the deliveries whose records never reached a successful execution
		const lost = new Set(r.tally.lostIds);
		const lostDeliveries = d.filter(
			(x: any) => x.ids.length > 0 && x.ids.some((id: string) => lost.has(id)),
		);
		if (lostDeliveries.length) {
			const answers = new Map<string, number>();
			for (const x of lostDeliveries) {
				const last = x.attempts.filter((a: any) => !a.copy).at(-1);
				const key = `${last?.status ?? last?.error} ${JSON.stringify(last?.response ?? '')}`;
				answers.set(key, (answers.get(key) ?? 0) + 1);
			}
			console.log(
				`    ${lostDeliveries.length} deliveries lost; n8n's last answer to them: ${[...answers].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
			);
		}
		// and how the deliveries whose records ran twice were sent (a copy, a retry after a lost answer or a timeout)
		const doubled = new Set(r.tally.doubledIds);
		for (const x of d.filter((y: any) => y.ids.some((id: string) => doubled.has(id)))) {
			const sent = x.attempts.map(
				(a: any) =>
					`${a.copy ? 'copy' : 'attempt'} ${a.lost ? 'answer lost' : (a.error ?? a.status)} (server_time +${a.server_time - x.attempts[0].server_time} ms): ${JSON.stringify(a.response ?? '')}`,
			);
			console.log(
				`    delivery ${x.delivery_id} (${x.module} ${x.operation}, ${x.ids.length} ids) ran twice; sent as: ${sent.join('; ')}`,
			);
		}
	}
	// §7 limits: every 429 the sandbox answered n8n, and what became of it
	const refusals = refusalsByOperation(sb.sandbox.requests);
	const refused = [...refusals.values()].reduce((a, b) => a + b, 0);
	const gaveUpOn429 = [...executions.values()].filter(
		(e) => e.status !== 'success' && TOO_MANY.test(e.error ?? ''),
	);
	const limits = (
		(await (await fetch(`${sandboxUrl}/__sandbox/limits`)).json()) as {
			limits: Record<string, unknown>;
		}
	).limits;
	console.log(
		`API limits on (${API_EDITION}: ${limits.concurrency_limit} calls in flight per client application, ${limits.subConcurrency} resource-intensive; token issuance limits on): ` +
			`${refused} answers 429 to n8n (${formatCounts(refusals)}), each retried by the package's back-off; ${gaveUpOn429.length} execution(s) gave up on a 429; ` +
			`${sb.sandbox.requests.length} API calls in all, credits used ${limits.credits_used}`,
	);
	const refreshCalls = tokenCalls.filter((c) => c.grant !== 'code');
	const tokenPhase = FAULTS ? phaseResults[PHASE.token] : undefined;
	const limitHit = refreshCalls.filter((c) => c.error === 'access_denied');
	console.log(
		`token calls, whole run: ${formatCounts(countBy(tokenCalls, (c) => `${c.process} ${c.grant}${c.error ? ` (${c.error})` : ''}`))}; ` +
			`issuance limit (10 access tokens per refresh token per 10 min) hit: ${limitHit.length ? `yes, ${limitHit.length} refusal(s)` : 'no'}` +
			(tokenPhase
				? `\n    token phase: refresh calls per process: ${formatCounts(countBy(tokenPhase.tokenCalls, (c) => `${c.process}${c.error ? ` (${c.error})` : ''}`))} ` +
					`(${tokenPhase.tokenCalls.map((c) => `${c.process} ${c.status} at +${secs(c.at - tokenExpiredAt)} s`).join(', ')} after the expiry)`
				: ''),
	);
	const byStatus = new Map<string, number>();
	for (const e of executions.values()) byStatus.set(e.status, (byStatus.get(e.status) ?? 0) + 1);
	const runs = workerRuns(workers);
	console.log(
		`executions: ${executions.size} (${[...byStatus].map(([s, n]) => `${n} ${s}`).join(', ')}); by worker: ${[...runs].map(([n, r]) => `${n} ${r.finished.size}`).join(', ')}`,
	);
	const total = all.lastFinished - all.firstChange;
	console.log(
		`all phases: ${all.changes} changes, lost ${all.lost}, doubled ${all.doubled}; ${(all.changes / (total / 1000)).toFixed(1)} changes/s end to end over ${secs(total)} s; ` +
			`latency change → execution finished p50 ${secs(percentile(all.latencies, 50))} s, p95 ${secs(percentile(all.latencies, 95))} s`,
	);
	console.log(
		`peak RSS (VmHWM): ${[...peaks].map(([n, v]) => `${n} ${Math.round(v.hwm / 1024)} MB`).join(', ')}`,
	);

	// n8n's own loss on kill -9: a stalled job fails (maxStalledCount 0) and its execution's start data
	// is erased, so neither n8n nor an operator can re-run it. Such losses must be whole deliveries, at
	// most one per execution the killed worker was running; anything else is a loss of the package.
	const killedFailed = [...killedIds].filter((id) => executions.get(id)?.status !== 'success');
	const killLost = new Set<string>();
	let killAttributable = true;
	if (FAULTS && phaseResults[PHASE.kill]) {
		const lost = new Set(phaseResults[PHASE.kill].tally.lostIds);
		const whole = phaseResults[PHASE.kill].deliveries.filter(
			(d: any) => d.ids.length > 0 && d.ids.every((id: string) => lost.has(id)),
		);
		for (const d of whole) for (const id of d.ids) killLost.add(id);
		killAttributable =
			[...lost].every((id) => killLost.has(id)) && whole.length <= killedFailed.length;
		console.log(
			`kill -9: n8n lost ${killLost.size} change(s) (${whole.length} whole deliveries acknowledged 200) with the ${killedFailed.length} execution(s) worker-1 had taken ` +
				`(${killedFailed.map((id) => `${id}: ${executions.get(id)?.status}`).join(', ') || 'none'}); retry through REST: ${retried.map((r) => `${r.id}→${r.newId ? `${r.newId}: ${executions.get(Number(r.newId))?.status}` : `HTTP ${r.status}`}`).join(', ') || 'none'}`,
		);
	}

	// n8n's own loss on a webhook-process restart: while its database is connected but not yet
	// migrated, n8n 2.40.7 answers every request 200 "n8n is starting up. Please wait"
	// (abstract-server.js) without routing it, so a delivery arriving then never reaches the node and
	// the CRM, holding a 200, does not re-send it. Only whole deliveries so answered count as n8n's.
	const STARTUP_PAGE = 'n8n is starting up. Please wait';
	const startupLost = new Set<string>();
	const restartPhase = FAULTS ? phaseResults[PHASE.restart] : undefined;
	let startupAttributable = true;
	if (restartPhase) {
		const lost = new Set(restartPhase.tally.lostIds);
		const answeredByStartupPage = restartPhase.deliveries.filter(
			(d: any) =>
				d.ids.length > 0 &&
				d.ids.every((id: string) => lost.has(id)) &&
				d.attempts.filter((a: any) => !a.copy).at(-1)?.response === STARTUP_PAGE,
		);
		for (const d of answeredByStartupPage) for (const id of d.ids) startupLost.add(id);
		startupAttributable = [...lost].every((id) => startupLost.has(id));
		if (startupLost.size) {
			console.log(
				`webhook restart: n8n lost ${startupLost.size} change(s) (${answeredByStartupPage.length} whole deliveries it answered 200 "${STARTUP_PAGE}" while starting, before any node code ran)`,
			);
		}
	}

	// the polling trigger beside the instant one: exactly once per deal's last change (scale/polling.mts)
	const polled = tallyPolling(
		finals,
		pollingEmits(),
		new Map([...executions.values()].filter((e) => e.stoppedAt).map((e) => [e.id, e.stoppedAt!])),
	);
	const pollingRuns = [...executions.values()].filter((e) => e.workflowId === WF.polling.id);
	const pollingNotOk = pollingRuns.filter((e) => e.status !== 'success');
	const pollCalls = pollCallStarts.length;
	const cursorRows = (
		await pg.query(`select * from poller_state where "workflowId" = $1`, [WF.polling.id])
	).rows;
	const staticData = (
		await pg.query(`select "staticData" from workflow_entity where id = $1`, [WF.polling.id])
	).rows[0]?.staticData;
	const mainLogs = procs
		.filter((p) => p.name === 'main')
		.map((p) => readFrom(p.log, p.logStart))
		.join('\n');
	const durableOff = /durable poll cursors stay disabled/.test(mainLogs);
	const cursorOf = (row: any) => {
		const cursor = typeof row?.cursor === 'string' ? JSON.parse(row.cursor) : row?.cursor;
		const stream = cursor?.streams?.['Deals|Modified_Time'];
		return stream
			? `Deals|Modified_Time at ${new Date(stream.time).toISOString()} with ${stream.seen?.length ?? 0} key(s) of that second`
			: JSON.stringify(cursor ?? null).slice(0, 200);
	};
	console.log(
		`polling trigger (Deals updated, every minute, durable poll cursors ${!DURABLE_CURSORS ? 'off (--durable-cursors-off)' : durableOff ? 'OFF (n8n warned)' : 'on'}): ${polled.records} deals changed, last change emitted once ${polled.ok}, ` +
			`lost ${polled.lost.length}, doubled ${polled.doubled.length}; ${pollingRuns.length} polling executions (${pollingNotOk.length} not successful), ${polled.emitted} items; ` +
			`latency change → polling execution finished p50 ${secs(percentile(polled.latencies, 50))} s, p95 ${secs(percentile(polled.latencies, 95))} s; ` +
			`${pollCalls} COQL calls (the polling trigger's API calls)` +
			`\n    cursor: poller_state ${cursorRows.length ? cursorOf(cursorRows[0]) : 'has no row'}; workflow static data ${staticData ? cursorOf({ cursor: staticData['node:' + WF.polling.trigger] ?? staticData }) : 'empty'}`,
	);
	for (const e of pollingRuns) {
		const times = [...e.records.values()].sort();
		console.log(
			`    polling execution ${e.id} (${e.status}): created +${secs((e.createdAt ?? started) - started)} s, ${e.emitted ?? 0} items (${e.records.size} records${e.repeats?.length ? `, ${e.repeats.length} repeated` : ''}), ` +
				`Modified_Time ${times[0] ?? '-'} … ${times.at(-1) ?? '-'}`,
		);
	}
	if (polled.lost.length)
		console.log(
			`    lost: ${polled.lost.slice(0, 10).join(', ')}${polled.lost.length > 10 ? ' …' : ''}`,
		);
	if (polled.doubled.length)
		console.log(
			`    doubled: ${polled.doubled.slice(0, 10).join(', ')}${polled.doubled.length > 10 ? ' …' : ''}`,
		);

	// two webhook processes: n8n's dedupe store has no atomic claim across processes, so a delivery
	// the CRM sent more than once (a copy, or a re-send after a timeout) may run in both; a delivery
	// sent once must never run twice
	const twoWebhookDoubles = { resent: 0, attributable: true, ids: new Set<string>() };
	const twoPhase = FAULTS ? phaseResults[PHASE.twoWebhooks] : undefined;
	if (twoPhase) {
		const doubled = new Set(twoPhase.tally.doubledIds);
		const resentIds = new Set(
			twoPhase.deliveries
				.filter((d: any) => d.attempts.length > 1)
				.flatMap((d: any) => d.ids as string[]),
		);
		twoWebhookDoubles.ids = new Set([...doubled].filter((id) => resentIds.has(id)));
		twoWebhookDoubles.resent = twoWebhookDoubles.ids.size;
		twoWebhookDoubles.attributable = twoWebhookDoubles.resent === doubled.size;
		const sentTwice = twoPhase.deliveries.filter((d: any) => d.attempts.length > 1);
		console.log(
			`two webhook processes: ${twoPhase.tally.doubled} of ${twoPhase.tally.changes} changes doubled (${((100 * twoPhase.tally.doubled) / twoPhase.tally.changes).toFixed(1)} %); ` +
				`${sentTwice.length} of ${twoPhase.deliveries.length} deliveries were sent more than once, ` +
				`${twoPhase.deliveries.filter((d: any) => d.ids.some((id: string) => doubled.has(id))).length} of them ran twice`,
		);
	}

	// doubles the phases did not count (their second execution came after the phase settled, e.g.
	// a catch-up): which executions ran them, by id, mode, start and size
	let lateSummary = '';
	const lateDoubles = all.doubledIds.filter(
		(id) =>
			!twoWebhookDoubles.ids.has(id) && !phaseResults.some((r) => r.tally.doubledIds.includes(id)),
	);
	if (lateDoubles.length) {
		const late = new Set(lateDoubles);
		const runsOf = new Map<string, Execution[]>();
		for (const e of executions.values())
			if (INSTANT.has(e.workflowId) && e.status === 'success')
				for (const id of e.records.keys())
					if (late.has(id)) runsOf.set(id, [...(runsOf.get(id) ?? []), e]);
		const groups = countBy(lateDoubles, (id) =>
			(runsOf.get(id) ?? [])
				.map(
					(e) =>
						`${e.id} (${e.mode}, +${secs((e.createdAt ?? started) - started)} s, ${e.records.size} records)`,
				)
				.join(' and '),
		);
		lateSummary = `doubled after their phase settled: ${lateDoubles.length} change(s), ran by ${formatCounts(groups)}`;
		console.log(lateSummary);
	}

	console.log('\nchecks:');
	for (const [i, r] of phaseResults.entries()) {
		if (FAULTS && i === PHASE.kill) {
			check(
				killAttributable,
				`phase ${i + 1} (${r.name}): the only changes lost are whole deliveries of executions killed in flight (${r.tally.lost} lost, ${killLost.size} attributed to ${killedFailed.length} killed execution(s))`,
			);
		} else if (FAULTS && i === PHASE.restart) {
			check(
				startupAttributable,
				`phase ${i + 1} (${r.name}): no change lost but whole deliveries n8n answered with its start-up page (${r.tally.lost} lost, ${startupLost.size} of them so answered)`,
			);
		} else
			check(
				r.tally.lost === 0,
				`phase ${i + 1} (${r.name}): no change lost (${r.tally.lost} lost)`,
			);
		if (FAULTS && i === PHASE.twoWebhooks) {
			check(
				twoWebhookDoubles.attributable,
				`phase ${i + 1} (${r.name}): the only changes doubled are of deliveries the CRM sent more than once, which the proxy may hand to both processes ` +
					`(${r.tally.doubled} doubled, ${twoWebhookDoubles.resent} of them in re-sent or copied deliveries)`,
			);
		} else
			check(
				r.tally.doubled === 0,
				`phase ${i + 1} (${r.name}): no change in two successful executions (${r.tally.doubled} doubled)`,
			);
	}
	check(
		all.lost - killLost.size - startupLost.size === 0,
		`every one of the ${all.changes} changes is in a successful execution, apart from the ${killLost.size} n8n lost with the killed worker and the ${startupLost.size} it answered with its start-up page (${all.lost - killLost.size - startupLost.size} lost otherwise)`,
	);
	check(
		all.doubled - twoWebhookDoubles.resent === 0,
		`no change is in two successful executions, apart from the ${twoWebhookDoubles.resent} copies that reached both webhook processes (${all.doubled - twoWebhookDoubles.resent} doubled otherwise${lateSummary ? `; ${lateSummary}` : ''})`,
	);
	if (DURABLE_CURSORS) {
		check(
			polled.lost.length === 0,
			`polling: every deal's last change is in a successful polling execution (${polled.records - polled.lost.length}/${polled.records}; ${polled.lost.length} lost)`,
		);
		check(
			polled.doubled.length === 0,
			`polling: no (id, Modified_Time) in two polling executions or twice in one (${polled.doubled.length} doubled)`,
		);
		check(
			!durableOff && cursorRows.length === 1,
			`polling: durable poll cursors on (no warning in main's log) and the cursor kept in poller_state (${cursorRows.length} row)`,
		);
		const lostEarly = beforeFirstPoll.filter((id) => polled.lost.includes(id));
		const firstChange = Math.min(...[...finals.values()].map((f) => f.at));
		const relative = (t: number) =>
			`${t < firstChange ? '' : '+'}${((t - firstChange) / 1000).toFixed(1)} s`;
		check(
			beforeFirstPoll.length > 0 && lostEarly.length === 0,
			`polling: the ${beforeFirstPoll.length} deals last changed between publishing and the first scheduled poll are emitted (${lostEarly.length} lost)` +
				(beforeFirstPoll.length > 0
					? ''
					: `; COQL calls from the first deal change: publishing poll ${pollCallStarts.slice(0, publishingPollCalls).map(relative).join(', ')}, then ${pollCallStarts
							.slice(publishingPollCalls, publishingPollCalls + 5)
							.map(relative)
							.join(', ')}`),
		);
	} else {
		// measured, not required: what the README says of n8n without durable poll cursors
		console.log(
			`polling without durable poll cursors (measured): ${polled.lost.length} of ${polled.records} deals' last change lost, ${polled.doubled.length} (id, Modified_Time) doubled; ` +
				`poller_state rows ${cursorRows.length}`,
		);
		check(
			cursorRows.length === 0,
			`polling: durable poll cursors off as asked (poller_state has ${cursorRows.length} row(s)); the cursor in the workflow's static data`,
		);
	}
	check(
		gaveUpOn429.length === 0,
		`the package backed off on every 429 of the API limits: ${refused} answered, ${gaveUpOn429.length} execution(s) failed on one`,
	);
	if (tokenPhase) {
		const processes = new Set(tokenPhase.tokenCalls.map((c) => c.process));
		check(
			tokenPhase.tokenCalls.length > 0 &&
				tokenPhase.tally.lost === 0 &&
				tokenPhase.tally.doubled === 0,
			`the access token expired mid-burst and every process kept working: ${tokenPhase.tokenCalls.length} token call(s) from ${[...processes].join(', ') || 'none'}, ` +
				`${tokenPhase.tokenCalls.filter((c) => c.error).length} refused; lost ${tokenPhase.tally.lost}, doubled ${tokenPhase.tally.doubled}`,
		);
	}
	check(
		all.mismatched === 0,
		`each execution carries the record as changed (id + Modified_Time / Created_Time): ${all.mismatched} mismatched`,
	);
	const ran = [...runs].filter(([, r]) => r.finished.size > 0).map(([n]) => n);
	check(
		ran.includes('worker-1') && ran.includes('worker-2'),
		`both workers ran executions (${[...runs].map(([n, r]) => `${n}: ${r.finished.size}`).join(', ')})`,
	);
	const notOk = [...executions.values()].filter(
		(e) =>
			e.status !== 'success' &&
			!killedIds.has(e.id) &&
			!(e.retryOf && killedIds.has(Number(e.retryOf))),
	);
	writeFileSync(path.join(RUN_DIR, 'deliveries.json'), JSON.stringify(deliveries(), null, 1));
	check(
		notOk.length === 0,
		`every execution succeeded, except those killed in flight and their retries (${notOk.map((e) => `${e.id}: ${e.status}`).join(', ') || 'none other'}; killed in flight: ${[...killedIds].join(', ') || 'none'})`,
	);
	const leads = changes.filter(
		(c) => c.module === 'Leads' && !killLost.has(c.id) && !startupLost.has(c.id),
	);
	// a lead whose copied delivery ran in both webhook processes (counted above) ran its Update in two
	// successful executions: two writes, one per execution, is what n8n asked of the CRM
	const successfulRuns = (id: string) =>
		[...executions.values()].filter(
			(e) => INSTANT.has(e.workflowId) && e.status === 'success' && e.records.has(id),
		).length;
	const expectedWrites = (id: string) => (twoWebhookDoubles.ids.has(id) ? successfulRuns(id) : 1);
	const writesOff = leads.filter((c) => leadWrites.get(c.id) !== expectedWrites(c.id));
	const copiedLeads = leads.filter((c) => twoWebhookDoubles.ids.has(c.id)).length;
	const descriptions = new Map<string, string>();
	for (let i = 0; i < leads.length; i += 100) {
		const res = await crm(
			'GET',
			`/Leads?ids=${leads
				.slice(i, i + 100)
				.map((c) => c.id)
				.join(',')}&fields=Last_Name,Description`,
		);
		for (const r of res.body?.data ?? [])
			descriptions.set(String(r.id), `${r.Description}|${r.Last_Name}`);
	}
	const wrongText = leads.filter((c) => {
		const [desc, last] = (descriptions.get(c.id) ?? '|').split('|');
		return desc !== `${LEAD_NOTE}${last}`;
	});
	check(
		writesOff.length === 0,
		`the CRM Record Update of each new lead (but those lost with the killed worker) reached the sandbox once per successful execution (${leads.length - writesOff.length}/${leads.length}; ${writesOff.length} written otherwise; ${copiedLeads} ran in both webhook processes)`,
	);
	check(
		wrongText.length === 0,
		`each new lead holds the value n8n wrote (${leads.length - wrongText.length}/${leads.length})`,
	);
	// the CRM sent each delivery once: what n8n answered, per phase; a steady burst is answered 2xx
	// on the first and only attempt, inside the CRM's 10 s, with no 503
	for (const [i, r] of phaseResults.entries()) {
		const answers = countBy(
			r.deliveries.flatMap((d: any) => d.attempts.filter((a: any) => !a.copy)),
			(a: any) => (a.status !== undefined ? String(a.status) : (a.error ?? 'none')),
		);
		console.log(
			`phase ${i + 1} (${r.name}): the CRM's single attempts answered ${formatCounts(answers)}`,
		);
	}
	// the burst: how n8n answered the CRM's single attempts (an attempt the CRM gave up on counts at its
	// 10 s; bench:queue times answers past it, at the proxy)
	const burstPhase = phaseResults[PHASE.burst];
	if (burstPhase) {
		const firsts = burstPhase.deliveries.map((d: any) => d.attempts.find((a: any) => !a.copy));
		const ms = firsts.filter(Boolean).map((a: any) => a.duration_ms as number);
		const inTime = firsts.filter(
			(a: any) => a && a.status >= 200 && a.status < 300 && a.duration_ms <= 10_000,
		).length;
		console.log(
			`phase ${PHASE.burst + 1} (${burstPhase.name}): ${inTime} of ${burstPhase.deliveries.length} deliveries answered 2xx inside the CRM's 10 s; ` +
				`${firsts.filter((a: any) => a?.status === 503).length} answered 503, ${firsts.filter((a: any) => a && a.status === undefined).length} timed out or failed to connect; ` +
				`answer p50 ${secs(percentile(ms, 50))} s, p95 ${secs(percentile(ms, 95))} s`,
		);
	}
	const steady = phaseResults[PHASE.steady];
	if (steady) {
		const notOk = steady.deliveries.filter(
			(d: any) => d.outcome !== 'delivered' || d.attempts.filter((a: any) => !a.copy).length !== 1,
		);
		check(
			notOk.length === 0,
			`phase 1 (${steady.name}): every one of its ${steady.deliveries.length} deliveries answered 2xx on its first and only attempt, inside the CRM's 10 s (${notOk.length} not: ${formatCounts(countBy(notOk, (d: any) => String(d.attempts.at(-1)?.status ?? d.attempts.at(-1)?.error)))})`,
		);
	}
	console.log(`run time ${secs(Date.now() - started)} s; logs in ${path.relative(REPO, RUN_DIR)}/`);
}
