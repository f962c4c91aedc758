// n8n's executions as stored in PostgreSQL (flatted execution data), read back and tallied against
// the changes the run made.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { runtimeRequire } from '../n8n-runtime.mts';
import type { N8nProc } from './n8n.mts';
import { INSTANT, RUN_DIR, WF } from './options.mts';
import { pollingKey } from './polling.mts';
import { readFrom } from './processes.mts';
import type { PgClient } from './services.mts';

// ---- executions as stored by n8n ----------------------------------------------------------------

export interface Change {
	id: string;
	module: 'Deals' | 'Leads';
	/** Modified_Time (updates) or Created_Time (creates) the sandbox answered */
	time: string;
	/** when the sandbox answered the write, ms */
	at: number;
	phase: number;
}

export interface Execution {
	id: number;
	status: string;
	workflowId: string;
	mode: string;
	retryOf: string | null;
	stoppedAt: number | null;
	createdAt?: number | null;
	/** records the trigger emitted: id → Modified_Time / Created_Time of the fetched record */
	records: Map<string, string | undefined>;
	parsedStatus?: string;
	/** resultData.error.message of an execution that did not succeed */
	error?: string;
	/** polling: items the trigger emitted, and keys it emitted twice in this one execution */
	emitted?: number;
	repeats?: string[];
}

export const executions = new Map<number, Execution>();

/** Items the trigger node emitted: from its run data, or from the start stack when it never ran (crashed). */
export function triggerItems(data: any, nodeName: string): any[] {
	const runs = data?.resultData?.runData?.[nodeName];
	if (Array.isArray(runs) && runs.length > 0)
		return runs.flatMap((r: any) => r?.data?.main?.[0] ?? []).map((i: any) => i?.json ?? {});
	const stack = (data?.executionData?.nodeExecutionStack ?? []) as any[];
	return stack
		.filter((s) => s?.node?.name === nodeName)
		.flatMap((s) => s?.data?.main?.[0] ?? [])
		.map((i: any) => i?.json ?? {});
}

export async function readExecutions(pg: PgClient): Promise<void> {
	const { parse } = runtimeRequire('flatted') as { parse: (text: string) => any };
	const rows = (
		await pg.query(
			`select id, status, "workflowId", mode, "retryOf", "createdAt", "stoppedAt" from execution_entity where "workflowId" = any($1) order by id`,
			[[WF.deals.id, WF.leads.id, WF.polling.id, WF.floor.id, WF.floorTrigger.id]],
		)
	).rows;
	const toParse: number[] = [];
	for (const row of rows) {
		const id = Number(row.id);
		const known = executions.get(id);
		const e: Execution = known ?? {
			id,
			status: '',
			workflowId: row.workflowId,
			mode: row.mode,
			retryOf: row.retryOf,
			stoppedAt: null,
			records: new Map(),
		};
		e.status = row.status;
		e.createdAt = row.createdAt ? new Date(row.createdAt).getTime() : null;
		e.stoppedAt = row.stoppedAt ? new Date(row.stoppedAt).getTime() : null;
		executions.set(id, e);
		if (!['new', 'running', 'waiting'].includes(e.status) && e.parsedStatus !== e.status)
			toParse.push(id);
	}
	for (let i = 0; i < toParse.length; i += 20) {
		const ids = toParse.slice(i, i + 20);
		const data = (
			await pg.query(
				`select "executionId", data from execution_data where "executionId" = any($1)`,
				[ids],
			)
		).rows;
		for (const row of data) {
			const e = executions.get(Number(row.executionId))!;
			const parsed = parse(row.data);
			const name =
				[WF.deals, WF.leads, WF.floor, WF.floorTrigger].find((w) => w.id === e.workflowId)
					?.trigger ?? WF.polling.trigger;
			e.records = new Map();
			e.emitted = 0;
			for (const item of triggerItems(parsed, name)) {
				// the floor's Webhook emits the delivery as one item: its records are the body's ids
				if (e.workflowId === WF.floor.id) {
					for (const id of (item.body?.ids ?? []) as unknown[])
						e.records.set(String(id), undefined);
					continue;
				}
				// the floor trigger emits one item per record id of the body
				if (e.workflowId === WF.floorTrigger.id) {
					if (item.id !== undefined) e.records.set(String(item.id), undefined);
					continue;
				}
				if (e.workflowId === WF.polling.id) {
					const key = pollingKey(item);
					if (!key) continue;
					e.emitted++;
					// an id twice in one poll counts as two emits: keep the first, count the second as a double
					if (e.records.has(key.id)) e.repeats = [...(e.repeats ?? []), `${key.id}|${key.time}`];
					else e.records.set(key.id, key.time);
					continue;
				}
				if (item.id === undefined) continue;
				const record = item.record as Record<string, unknown> | undefined;
				const time = e.workflowId === WF.deals.id ? record?.Modified_Time : record?.Created_Time;
				e.records.set(String(item.id), time === undefined ? undefined : String(time));
			}
			e.parsedStatus = e.status;
			e.error = parsed?.resultData?.error?.message;
			// evidence for the report: what n8n kept of an execution that did not succeed
			if (e.status !== 'success') {
				mkdirSync(path.join(RUN_DIR, 'executions'), { recursive: true });
				writeFileSync(
					path.join(RUN_DIR, 'executions', `${e.id}-${e.status}.json`),
					JSON.stringify(parsed, null, 1).slice(0, 2_000_000),
				);
			}
		}
	}
}

export interface Tally {
	changes: number;
	ok: number;
	lost: number;
	/** lost changes that n8n received (they are in an execution that did not succeed) */
	lostInFailed: number;
	doubled: number;
	/** emitted with another Modified_Time / Created_Time than the change made */
	mismatched: number;
	latencies: number[];
	lostIds: string[];
	doubledIds: string[];
	lastFinished: number;
	firstChange: number;
}

export function tally(list: Change[], workflowIds: Set<string> = INSTANT): Tally {
	const inSuccess = new Map<string, Execution[]>();
	const inAny = new Set<string>();
	for (const e of executions.values()) {
		if (!workflowIds.has(e.workflowId)) continue;
		for (const id of e.records.keys()) {
			inAny.add(id);
			if (e.status === 'success') inSuccess.set(id, [...(inSuccess.get(id) ?? []), e]);
		}
	}
	const t: Tally = {
		changes: list.length,
		ok: 0,
		lost: 0,
		lostInFailed: 0,
		doubled: 0,
		mismatched: 0,
		latencies: [],
		lostIds: [],
		doubledIds: [],
		lastFinished: 0,
		firstChange: Infinity,
	};
	for (const c of list) {
		t.firstChange = Math.min(t.firstChange, c.at);
		const found = inSuccess.get(c.id) ?? [];
		if (found.length === 0) {
			t.lost++;
			t.lostIds.push(c.id);
			if (inAny.has(c.id)) t.lostInFailed++;
			continue;
		}
		if (found.length > 1) {
			t.doubled++;
			t.doubledIds.push(c.id);
		} else t.ok++;
		const first = found.reduce((a, b) =>
			(a.stoppedAt ?? Infinity) <= (b.stoppedAt ?? Infinity) ? a : b,
		);
		const time = first.records.get(c.id);
		if (time !== undefined && time !== c.time) t.mismatched++;
		if (first.stoppedAt) {
			t.latencies.push(first.stoppedAt - c.at);
			t.lastFinished = Math.max(t.lastFinished, first.stoppedAt);
		}
	}
	return t;
}

/** Which worker ran which execution, from the workers' own log lines. */
export function workerRuns(
	workers: N8nProc[],
): Map<string, { started: Set<number>; finished: Set<number> }> {
	const out = new Map<string, { started: Set<number>; finished: Set<number> }>();
	for (const w of workers) {
		const text = readFrom(w.log, w.logStart);
		const started = new Set(
			[...text.matchAll(/Worker started execution (\d+)/g)].map((m) => Number(m[1])),
		);
		const finished = new Set(
			[...text.matchAll(/Worker finished execution (\d+)/g)].map((m) => Number(m[1])),
		);
		out.set(w.name, { started, finished });
	}
	return out;
}
