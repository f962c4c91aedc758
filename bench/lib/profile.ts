// A CPU profile of one run, taken in process with V8's sampling profiler (node:inspector), summed
// up as the time spent under a few named frames: where a figure's gap to its baseline goes, measured
// in the same run as the figure (bench/results.md, "Profiles").
import { Session } from 'node:inspector/promises';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}

export interface Bucket {
	label: string;
	/** matches a frame: function name and script url */
	match: (functionName: string, url: string) => boolean;
	/** count only samples whose top frame matches (self time) instead of any frame of the stack */
	self?: boolean;
}

export interface ProfileSummary {
	totalMs: number;
	/** ms of samples with a matching frame on their stack (inclusive), per bucket */
	buckets: Array<{ label: string; ms: number }>;
	gcMs: number;
}

export async function profileRun(
	fn: () => Promise<unknown>,
	buckets: Bucket[],
): Promise<ProfileSummary> {
	const session = new Session();
	session.connect();
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 200 });
		await session.post('Profiler.start');
		await fn();
		const { profile } = (await session.post('Profiler.stop')) as unknown as {
			profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
		};
		const parent = new Map<number, number>();
		const byId = new Map<number, ProfileNode>();
		for (const node of profile.nodes) {
			byId.set(node.id, node);
			for (const child of node.children ?? []) parent.set(child, node.id);
		}
		const sums = buckets.map(() => 0);
		let total = 0;
		let gc = 0;
		profile.samples.forEach((id, i) => {
			const dt = (profile.timeDeltas[i] ?? 0) / 1000;
			total += dt;
			if (byId.get(id)?.callFrame.functionName === '(garbage collector)') gc += dt;
			const top = byId.get(id)!.callFrame;
			const hit = buckets.map((b) => !!b.self && b.match(top.functionName, top.url));
			for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
				const frame = byId.get(cur)!.callFrame;
				buckets.forEach((b, j) => {
					if (!b.self && !hit[j] && b.match(frame.functionName, frame.url)) hit[j] = true;
				});
			}
			hit.forEach((h, j) => h && (sums[j] += dt));
		});
		return {
			totalMs: total,
			buckets: buckets.map((b, j) => ({ label: b.label, ms: sums[j] })),
			gcMs: gc,
		};
	} finally {
		await session.post('Profiler.disable').catch(() => undefined);
		session.disconnect();
	}
}

/** "total 812 ms: n8n expression evaluation 301 ms (37%), …, GC 40 ms" */
export function describeProfile(p: ProfileSummary): string {
	const pct = (v: number) => `${Math.round((100 * v) / Math.max(1e-9, p.totalMs))}%`;
	return [
		`sampled ${p.totalMs.toFixed(0)} ms`,
		...p.buckets.map((b) => `${b.label} ${b.ms.toFixed(0)} ms (${pct(b.ms)})`),
		`garbage collection ${p.gcMs.toFixed(0)} ms (${pct(p.gcMs)})`,
	].join('; ');
}
