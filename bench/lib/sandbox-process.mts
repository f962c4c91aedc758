// A sandbox in a process of its own, for the figures of `npm run bench` that measure the client's
// memory (P5): the bench process then holds only the client side (n8n's engine and the node, or the
// raw HTTP client). Inserts BENCH_CONTACTS Contacts straight through the record service, prints
// `{"url": …, "inserted": …, "insertMs": …}` as one line on stdout, and stops when stdin closes.
import { createRecord } from '../../sandbox/records.ts';
import { startSandbox } from '../../sandbox/server.ts';

const count = Number(process.env.BENCH_CONTACTS ?? 0);
const running = await startSandbox({
	port: 0,
	dbPath: ':memory:',
	demo: false,
	apiLimits: { enabled: false },
	jobStepMs: 100,
	knobs: { bulkReadDownloadsPerMinute: 1000 },
});
const { sandbox } = running;
const module = sandbox.module('Contacts')!;
const user = sandbox.user();
const started = Date.now();
for (let start = 0; start < count; start += 10_000) {
	sandbox.store.transaction(() => {
		for (let i = start; i < Math.min(count, start + 10_000); i++) {
			const result = createRecord(
				sandbox,
				module,
				{
					First_Name: `First ${i}`,
					Last_Name: `Export ${i}`,
					Email: `export-${i}@bench.example`,
					Department: `Dept ${i % 50}`,
					Phone: `+1 555 ${String(i).padStart(7, '0')}`,
					// size buckets for the scaling rows: criteria Title = A (1,000), in [A, B] (10,000), none (all)
					Title: i < 1000 ? 'Bench A' : i < 10_000 ? 'Bench B' : 'Bench C',
					Description: `Contact number ${i} of the bulk read benchmark`,
				},
				{ v: 'v2.1', user, index: i - start },
			);
			if (!result.ok) throw new Error(JSON.stringify(result.body));
		}
	});
}
process.stdout.write(
	`${JSON.stringify({ url: running.url, uploadUrl: running.uploadUrl, inserted: count, insertMs: Date.now() - started })}\n`,
);

process.stdin.on('end', () => void running.close().then(() => process.exit(0)));
process.stdin.resume();
