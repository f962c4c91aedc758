// The polling side of test:scale: a CRM Polling Trigger workflow on Deals updates, polling every
// minute beside the instant trigger, and the exactly-once count of what it emitted.
//
// A poll sees only the latest state of a record, so a record changed twice between two polls is
// emitted once, with its last Modified_Time. The criterion is therefore per record:
//   - lost:    a record whose final Modified_Time (the one the CRM holds after the run's last change
//              to it) is in no successful polling execution;
//   - doubled: an (id, Modified_Time) in more than one successful polling execution, or twice in one.
// An earlier state emitted by an earlier poll is neither: it is a change the CRM held at that poll.
import { randomUUID } from 'node:crypto';

export interface PollingEmit {
	execution: number;
	id: string;
	time: string;
}

export interface PollingTally {
	records: number;
	/** records whose final Modified_Time was emitted exactly once */
	ok: number;
	lost: string[];
	/** `id|Modified_Time` keys emitted more than once */
	doubled: string[];
	/** emitted (id, Modified_Time) pairs in all */
	emitted: number;
	executions: number;
	/** change made → polling execution finished, per record (ms) */
	latencies: number[];
}

export function pollingWorkflow(opts: {
	id: string;
	name: string;
	trigger: string;
	nodeType: string;
	credentials: Record<string, unknown>;
}): Record<string, unknown> {
	return {
		id: opts.id,
		name: opts.name,
		nodes: [
			{
				id: randomUUID(),
				name: opts.trigger,
				type: opts.nodeType,
				typeVersion: 1,
				position: [0, 0],
				// n8n's shortest poll interval: every minute (a sub-minute cron is refused on activation)
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					event: 'updated',
					modules: ['Deals'],
					options: {},
				},
				credentials: opts.credentials,
			},
			{
				id: randomUUID(),
				name: 'Deal updated',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [opts.trigger]: { main: [[{ node: 'Deal updated', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

/** (id, Modified_Time) of one item the polling trigger emitted. */
export function pollingKey(
	json: Record<string, unknown>,
): { id: string; time: string } | undefined {
	if (json.id === undefined) return undefined;
	const record = json.record as Record<string, unknown> | undefined;
	const time = record?.Modified_Time ?? json.time;
	return { id: String(json.id), time: String(time) };
}

/**
 * `finals`: each record the run changed → its final Modified_Time and when that change was made;
 * `emits`: what successful polling executions emitted; `finished`: execution id → stoppedAt (ms).
 */
export function tallyPolling(
	finals: Map<string, { time: string; at: number }>,
	emits: PollingEmit[],
	finished: Map<number, number>,
): PollingTally {
	const byKey = new Map<string, number[]>();
	for (const e of emits) {
		const key = `${e.id}|${e.time}`;
		byKey.set(key, [...(byKey.get(key) ?? []), e.execution]);
	}
	const t: PollingTally = {
		records: finals.size,
		ok: 0,
		lost: [],
		doubled: [],
		emitted: emits.length,
		executions: new Set(emits.map((e) => e.execution)).size,
		latencies: [],
	};
	for (const [key, list] of byKey) if (list.length > 1) t.doubled.push(key);
	for (const [id, final] of finals) {
		const list = byKey.get(`${id}|${final.time}`);
		if (!list) {
			t.lost.push(id);
			continue;
		}
		if (list.length === 1) t.ok++;
		const stopped = finished.get(list[0]);
		if (stopped) t.latencies.push(stopped - final.at);
	}
	return t;
}
