// CRM Polling Trigger latency and cost at a fixed poll interval (`npm run bench`, figure P6).
//
// The node polls through n8n-core's PollContext (test/harness/poll.ts, durable cursors as n8n
// stages them). Time between polls passes on the sandbox clock instead of the wall clock: each
// simulated interval gets its changes at random moments (one API call each, clock moved forward
// between them), then the clock reaches the interval's end and the poll runs for real. A change's
// latency is the simulated wait from the change to the poll plus the poll's own wall time until its
// items are returned; the API calls are the sandbox's log during the polls.
import { performance } from 'node:perf_hooks';

import type { CrmFixture } from '../../test/harness/crm';
import { crmPoller } from '../../test/harness/poll';
import { advanceSandboxClock } from '../../test/harness/sandbox';

export interface PollingRun {
	intervalMs: number;
	/** change → items returned by the poll that emitted it, ms (simulated wait + that poll's wall time) */
	latencies: number[];
	/** change → the end of its interval (the next poll), ms: what the interval alone imposes */
	waits: number[];
	/** wall time of each poll that emitted, ms */
	pollMs: number[];
	/** API calls of each poll that emitted, and of an idle poll */
	callsPerPoll: number[];
	idleCalls: number;
	emitted: number;
	changes: number;
}

const apiCalls = (crm: CrmFixture) =>
	crm.running.sandbox.requests.filter((r) => r.url.startsWith('/crm/')).length;

/** `polls` intervals of `intervalMs`, `perInterval` changes of Leads in each (a third creates, the rest edits). */
export async function measurePollingLatency(
	crm: CrmFixture,
	intervalMs: number,
	polls: number,
	perInterval: number,
): Promise<PollingRun> {
	const seed = await crm.api('POST', '/crm/v2.1/Leads', {
		data: Array.from({ length: perInterval }, (_, i) => ({
			Last_Name: `P6 seed ${i}`,
			Company: 'Bench',
		})),
	});
	const ids: string[] = seed.body.data.map((r: any) => String(r.details.id));
	const poller = crmPoller(
		crm,
		{ event: 'createdOrUpdated', modules: ['Leads'] },
		{ durable: true },
	);
	if ((await poller.poll()) !== null) throw new Error('P6: the first poll (activation) emitted');
	const run: PollingRun = {
		intervalMs,
		latencies: [],
		waits: [],
		pollMs: [],
		callsPerPoll: [],
		idleCalls: 0,
		emitted: 0,
		changes: 0,
	};
	/** changes not emitted yet: record id → simulated time of the change (ms since the activation poll) */
	const pending = new Map<string, number>();
	let now = 0;
	const pollOnce = async (): Promise<number> => {
		const calls = apiCalls(crm);
		const start = performance.now();
		const items = (await poller.poll()) ?? [];
		const pollMs = performance.now() - start;
		for (const item of items) {
			const id = String(item.json.id);
			const at = pending.get(id);
			if (at === undefined) continue;
			pending.delete(id);
			run.latencies.push(now - at + pollMs);
			run.emitted++;
		}
		if (items.length) {
			run.pollMs.push(pollMs);
			run.callsPerPoll.push(apiCalls(crm) - calls);
		}
		return apiCalls(crm) - calls;
	};
	for (let p = 0; p < polls; p++) {
		const moments = Array.from({ length: perInterval }, () =>
			Math.floor(Math.random() * intervalMs),
		).sort((a, b) => a - b);
		const boundary = now + intervalMs;
		for (const [i, moment] of moments.entries()) {
			await advanceSandboxClock(crm.url, boundary - intervalMs + moment - now);
			now = boundary - intervalMs + moment;
			const res =
				i % 3 === 0
					? await crm.api('POST', '/crm/v2.1/Leads', {
							data: [{ Last_Name: `P6 new ${p}-${i}`, Company: 'Bench' }],
						})
					: await crm.api('PUT', '/crm/v2.1/Leads', {
							data: [{ id: ids[i], Description: `P6 edit ${p}-${i}` }],
						});
			if (res.status >= 300) throw new Error(`P6: change answered ${res.status}`);
			pending.set(String(res.body.data[0].details.id), now);
			run.waits.push(intervalMs - moment);
			run.changes++;
		}
		await advanceSandboxClock(crm.url, boundary - now);
		now = boundary;
		await pollOnce();
	}
	// what the last interval left for the next poll, then an idle poll
	for (let extra = 0; extra < 2 && pending.size > 0; extra++) {
		await advanceSandboxClock(crm.url, intervalMs);
		now += intervalMs;
		await pollOnce();
	}
	await advanceSandboxClock(crm.url, intervalMs);
	now += intervalMs;
	run.idleCalls = await pollOnce();
	return run;
}
