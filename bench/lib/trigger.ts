// CRM Trigger latency, record change → emitted items (shared by `npm run bench` and `npm run bench:trigger`).
//
// The package's CRM Trigger is activated in n8n's engine (HookContext checkExists/create); a local
// receiver at the channel's notify_url hands every delivery to the trigger's webhook()
// (WebhookContext), as n8n's webhook server does. Each change is one API call made after the
// previous change was emitted. Two clocks per change, both from sending the call:
// - delivery: the sandbox's POST arrived at the receiver (the raw baseline, no node code involved);
// - emitted: webhook() returned the items (verification, dedupe, the items from the body): the
//   answer path. The records of Full Records, and an edit's Modified_Time, are fetched by the
//   trigger's execute() in the execution n8n then runs (bench row P6 measures that end to end).
import { performance } from 'node:perf_hooks';

import type { CrmFixture } from '../../test/harness/crm';
import { triggerHarness } from '../../test/harness/trigger';
import type { Receiver } from '../../test/harness/receiver';

export interface LatencyRun {
	mode: 'ids' | 'records';
	/** change → items emitted by webhook(), ms */
	emitted: number[];
	/** change → delivery received (before webhook() ran), ms */
	delivered: number[];
	/** items webhook() emitted with the full record attached */
	withRecord: number;
	/** the same two clocks for creates and for edits alone (webhook() fetches for edits only in Record IDs mode) */
	byKind: Record<'create' | 'edit', { emitted: number[]; delivered: number[] }>;
}

export function percentile(samples: number[], p: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	if (sorted.length === 0) return Number.NaN;
	const rank = Math.ceil((p / 100) * sorted.length) - 1;
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

/** Activates a trigger on Leads (create + edit), makes `changes` changes (half creates, half edits), deactivates. */
export async function measureTriggerLatency(
	crm: CrmFixture,
	receiver: Receiver,
	mode: 'ids' | 'records',
	index: number,
	changes: number,
): Promise<LatencyRun> {
	const trigger = crm.nodeTypes['n8n-nodes-crm-service.crmTrigger'] as any;
	const node = crm.node(
		'crmTrigger',
		{ modules: ['Leads'], events: ['create', 'edit'], output: mode },
		{
			name: 'CRM Trigger',
			webhookId: `be0c0000-0000-4000-8000-${String(index).padStart(12, '0')}`,
		},
	);
	const t = triggerHarness({ nodeTypes: crm.nodeTypes, credentialsHelper: crm.helper }, node);
	t.additionalData.webhookBaseUrl = `${receiver.url}/webhook`;
	const hooks = trigger.webhookMethods.default;
	if (!(await hooks.checkExists.call(t.hookContext()))) await hooks.create.call(t.hookContext());

	const sentAt = new Map<string, number>();
	const deliveredAt = new Map<string, number>();
	const emittedAt = new Map<string, number>();
	let waiting: { key: string; resolve: () => void } | undefined;
	let withRecord = 0;
	receiver.respond = async (req: any) => {
		const arrived = performance.now();
		for (const id of req.body?.ids ?? [])
			deliveredAt.set(`${req.body.operation === 'insert' ? 'create' : 'edit'}:${id}`, arrived);
		const { ctx, sent, answer } = t.webhookContext({ body: req.body });
		const result = await trigger.webhook.call(ctx);
		const now = performance.now();
		answer(200); // n8n's answer once the execution is queued
		for (const item of result.workflowData?.[0] ?? []) {
			const key = `${item.json.operation}:${item.json.id}`;
			emittedAt.set(key, now);
			// whether webhook() itself attached the record (it may leave the fetch to a later step)
			if (item.json.record) withRecord++;
			if (waiting?.key === key) waiting.resolve();
		}
		return sent.status ?? 200;
	};
	const change = async (key: string, call: () => Promise<any>): Promise<any> => {
		const emitted = new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no items for ${key} within 10 s`)), 10_000);
			waiting = {
				key,
				resolve: () => {
					clearTimeout(timer);
					resolve();
				},
			};
		});
		sentAt.set(key, performance.now());
		const res = await call();
		if (key.startsWith('create:?')) {
			// the id is known only from the answer; re-key the pending wait
			const id = res.body.data[0].details.id;
			const real = `create:${id}`;
			sentAt.set(real, sentAt.get(key)!);
			sentAt.delete(key);
			waiting!.key = real;
			if (emittedAt.has(real)) waiting!.resolve();
		}
		await emitted;
		return res;
	};

	const creates = Math.ceil(changes / 2);
	const ids: string[] = [];
	for (let i = 0; i < creates; i++) {
		const res = await change('create:?', () =>
			crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: `Bench ${mode} ${index} ${i}` }] }),
		);
		ids.push(res.body.data[0].details.id);
	}
	for (let i = 0; i < changes - creates; i++) {
		const id = ids[i % ids.length];
		await change(`edit:${id}`, () =>
			crm.api('PUT', `/crm/v2.1/Leads/${id}`, { data: [{ Company: `Edited ${index} ${i}` }] }),
		);
	}
	await hooks.delete.call(t.hookContext());
	receiver.respond = () => 200;
	const since = (at: Map<string, number>, kind = '') =>
		[...sentAt.entries()]
			.filter(([key]) => key.startsWith(kind))
			.map(([key, start]) => (at.get(key) ?? Number.NaN) - start)
			.filter((v) => Number.isFinite(v));
	const kindOf = (kind: 'create' | 'edit') => ({
		emitted: since(emittedAt, `${kind}:`),
		delivered: since(deliveredAt, `${kind}:`),
	});
	return {
		mode,
		emitted: since(emittedAt),
		delivered: since(deliveredAt),
		withRecord,
		byKind: { create: kindOf('create'), edit: kindOf('edit') },
	};
}
