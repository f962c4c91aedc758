// `npm run bench [-- options]`: runs the measurements (bench/run.bench.ts, a one-file jest project:
// see bench/jest.config.js) once per run, then writes bench/results.md from the runs.
//   --runs N     N consecutive runs (default 1); the table shows the last run, every verdict of
//                every run and the spread of each ratio across the runs
//   --check      exit non-zero when any run misses a target
//   --quick      small sizes (smoke run); results.md is not written
//   --only P2,P5 some figures only (S, P1, P2, P3, P4, P5, P7; P6 is the queue-mode run: npm run bench:queue); results.md is not written
// The final verification is `npm run bench -- --runs 3 --check`.
// The P6 rows come from bench/queue-mode.json, written by `npm run bench:queue` (the queue-mode stack of
// scripts/scale.mts, minutes to start): merged into the table as measured then, so a plain run keeps them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Row } from './run.bench.ts';

/** What one run writes (bench/run.bench.ts, BENCH_OUT) */
interface RunResult {
	rows: Row[];
	notes: string[];
	profiles: string[];
	started: string;
	seconds: number;
	quick: boolean;
	only: string[];
	load: { start: number[]; end: number[] };
}

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
};
const runs = Math.max(1, Number(option('--runs') ?? 1));
const check = flag('--check');
const quick = flag('--quick') || process.env.BENCH_QUICK === '1';
const only = option('--only') ?? process.env.BENCH_ONLY ?? '';

const root = path.resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'crm-bench-'));
const results: RunResult[] = [];

for (let run = 1; run <= runs; run++) {
	const out = path.join(tmp, `run-${run}.json`);
	console.error(`\n== bench run ${run} of ${runs} ==`);
	const load = os.loadavg();
	const jest = spawnSync(
		process.execPath,
		[
			'--experimental-vm-modules',
			path.join(root, 'node_modules/jest/bin/jest.js'),
			'-c',
			path.join(root, 'bench/jest.config.js'),
			'--runInBand',
			'bench/run.bench.ts',
		],
		{
			cwd: root,
			stdio: 'inherit',
			env: { ...process.env, BENCH_OUT: out, BENCH_QUICK: quick ? '1' : '', BENCH_ONLY: only },
		},
	);
	if (jest.status !== 0) {
		console.error(`bench run ${run} failed (exit ${jest.status})`);
		process.exit(jest.status ?? 1);
	}
	const result = JSON.parse(readFileSync(out, 'utf8')) as RunResult;
	result.load = { start: load, end: os.loadavg() };
	results.push(result);
}
rmSync(tmp, { recursive: true, force: true });

// ---- the table ----------------------------------------------------------------------------------

/** What `npm run bench:queue` writes (scripts/scale/bench-trigger.mts) */
interface QueueModeResult {
	measured: string;
	commit: string;
	command: string;
	stack: string;
	rows: Row[];
	notes: string[];
}
const queueFile = path.join(root, 'bench/queue-mode.json');
const queue = existsSync(queueFile)
	? (JSON.parse(readFileSync(queueFile, 'utf8')) as QueueModeResult)
	: undefined;
const isQueueRow = (r: Row) => queue?.rows.includes(r) ?? false;

const last = results[results.length - 1];
/** this run's rows, with the queue-mode rows (P6) before the P7 ones */
const tableRows = (() => {
	const own = last.rows;
	if (!queue) return own;
	const at = own.findIndex((r) => r.id === 'P7');
	return at < 0 ? [...own, ...queue.rows] : [...own.slice(0, at), ...queue.rows, ...own.slice(at)];
})();
const ratioText = (r: number) => `${r < 0.1 ? r.toFixed(3) : r.toFixed(2)}×`;
const verdict = (row: Row | undefined) => (row?.ok === undefined ? '' : row.ok ? '✓' : '✗');
const same = (a: Row, b: Row) => a.id === b.id && a.figure === b.figure;

function table(): string {
	const header = [
		'#',
		'Figure',
		'Node',
		'Baseline (same run)',
		'Ratio',
		'Target',
		...(runs > 1 ? ['Verdict per run', 'Ratio spread'] : []),
	];
	const lines = tableRows.map((r) => {
		const cells = [
			r.id,
			r.figure,
			r.node,
			r.baseline,
			r.ratio === undefined ? '—' : ratioText(r.ratio),
			r.target === undefined ? '—' : `${r.target}${r.ok === undefined ? '' : r.ok ? ' ✓' : ' ✗'}`,
		];
		if (runs > 1 && isQueueRow(r)) {
			cells.push(r.ok === undefined ? '—' : `${verdict(r)} (queue-mode run)`, '—');
		} else if (runs > 1) {
			const mates = results.map((res) => res.rows.find((o) => same(o, r)));
			const ratios = mates.map((m) => m?.ratio).filter((v): v is number => typeof v === 'number');
			cells.push(r.ok === undefined ? '—' : mates.map(verdict).join(' '));
			cells.push(
				ratios.length > 1
					? `${ratioText(Math.min(...ratios))} – ${ratioText(Math.max(...ratios))}`
					: '—',
			);
		}
		return cells;
	});
	const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
	const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	return [
		fmt(header),
		`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
		...lines.map(fmt),
	].join('\n');
}

function git(...gitArgs: string[]): string {
	const res = spawnSync('git', gitArgs, { cwd: root, encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : '';
}

function commit(): string {
	const head = git('rev-parse', '--short', 'HEAD') || 'unknown';
	return git('status', '--porcelain', '--untracked-files=no')
		? `${head} + uncommitted changes`
		: head;
}

const versionOf = (pkg: string) =>
	(
		JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as {
			version: string;
		}
	).version;

function machine(): string[] {
	const cpus = os.cpus();
	const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(', ');
	return [
		`- Code: commit ${commit()}`,
		`- Runs: ${results.map((r, i) => `${i + 1}) ${r.started}, ${r.seconds.toFixed(0)} s, load average ${load(r.load.start)} → ${load(r.load.end)}`).join('; ')}`,
		`- Machine: \`${os.type()} ${os.release()} ${os.version()} ${os.machine()}\`; ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}); ${Math.round(os.totalmem() / 1024 / 1024)} MB RAM`,
		...(queue ? [`- P6 (bench/queue-mode.json): ${queue.stack}`] : []),
		`- Node ${process.version}; n8n-core ${versionOf('n8n-core')}, n8n-workflow ${versionOf('n8n-workflow')}; baselines: csv-parse ${versionOf('csv-parse')}, yauzl ${versionOf('yauzl')}`,
	];
}

const targeted = results.flatMap((res, i) =>
	res.rows.filter((r) => r.ok !== undefined).map((r) => ({ run: i + 1, row: r })),
);
const missed = targeted.filter((t) => !t.row.ok);
const flipped = last.rows.filter(
	(r) =>
		r.ok !== undefined &&
		new Set(results.map((res) => res.rows.find((o) => same(o, r))?.ok)).size > 1,
);

const unjudged =
	queue?.rows.filter((r) => r.target !== undefined && r.ok === undefined).length ?? 0;

const summary = [
	`Targets: ${targeted.length / runs} per run; ${runs} run(s); missed: ${missed.length === 0 ? 'none' : missed.map((m) => `run ${m.run}: ${m.row.id} ${m.row.figure}`).join('; ')}`,
	runs > 1
		? `Verdicts that differ between runs: ${flipped.length === 0 ? 'none' : flipped.map((r) => `${r.id} ${r.figure}`).join('; ')}`
		: '',
	queue
		? `P6 rows: not measured by this run but by \`${queue.command}\` (bench/queue-mode.json) on ${queue.measured.slice(0, 16).replace('T', ' ')} UTC at commit ${queue.commit}; ` +
			`targets missed there: ${
				queue.rows
					.filter((r) => r.ok === false)
					.map((r) => r.figure)
					.join('; ') || 'none'
			}` +
			// rows with a target and no verdict: the run says why (e.g. its floor failed)
			(unjudged > 0 ? `; rows without a verdict: ${unjudged} (see their target)` : '')
		: '',
].filter(Boolean);

process.stdout.write(
	`\n${table()}\n\n${last.profiles.map((p) => `- ${p}`).join('\n')}\n\n${summary.join('\n')}\n${machine().join('\n')}\n`,
);

const partial = quick || only !== '';
if (!partial) {
	const explanations = readFileSync(path.join(root, 'bench/explanations.md'), 'utf8').trim();
	const markdown = [
		'# Benchmark results',
		'',
		'Measured with `npm run bench' +
			(runs > 1 ? ` -- --runs ${runs}` : '') +
			"` (bench/cli.mts, bench/run.bench.ts): the nodes run in n8n's engine (n8n-core, in",
		"process) against the sandbox over HTTP on 127.0.0.1 (in the same process; for P5 in a child process, so that memory is the client's alone).",
		'Each figure is set against a baseline measured in the same run; ratio = node ÷ baseline. Rows without a target are context.',
		'',
		table(),
		'',
		...summary.map((s) => `${s}.`),
		'',
		'## How each figure is measured',
		'',
		...last.notes.map((n) => `- ${n}`),
		...(queue?.notes ?? []).map((n) => `- ${n}`),
		'- S: raw HTTP clients (fetch, keep-alive) against the sandbox alone; GetRecords over the Vendors of P3, CreateRecords of 100 Campaigns per call.',
		'',
		'## Profiles (last run)',
		'',
		'V8 sampling profiles of single runs, taken in process during the bench (bench/lib/profile.ts): the time of the samples with a frame of each kind',
		"on their stack (kinds overlap: the package's code includes what it calls).",
		'',
		...last.profiles.map((p) => `- ${p}`),
		'',
		explanations,
		'',
		'## Machine',
		'',
		...machine(),
		'',
	].join('\n');
	writeFileSync(path.join(root, 'bench/results.md'), markdown);
	console.error('bench/results.md written');
}
if (check && missed.length > 0) {
	console.error(`--check: ${missed.length} target(s) missed`);
	process.exit(1);
}
