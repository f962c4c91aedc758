// The claim protocol of nodes/CrmTrigger/dedupe.ts against the lost update of n8n's store: the row
// is read and written back whole, so another process's write based on an older read drops our keys.
import type { IDataObject } from 'n8n-workflow';

import { claimChanges, releaseChanges } from '../../../nodes/CrmTrigger/dedupe';

/** claimChanges of another n8n process: its own module, so its claims do not take turns with ours. */
function claimsOfAnotherProcess(): typeof claimChanges {
	let other: typeof claimChanges | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		other = (require('../../../nodes/CrmTrigger/dedupe') as { claimChanges: typeof claimChanges })
			.claimChanges;
	});
	return other!;
}

type Helpers = Parameters<typeof claimChanges>[0] & Parameters<typeof releaseChanges>[0];

/** One row of n8n's store ("entries" mode): one trigger node's, so each test has its own. */
let nodes = 0;
function storeRow() {
	const state = { row: [] as string[], calls: 0, node: `workflow|node-${++nodes}` };
	const helpers = processOf(state);
	return { state, helpers, node: state.node };
}

/**
 * One process's view of the row. `firstRead`: what its first call reads instead of the row (a read
 * that came before another process's write, as when two first claims overlap).
 */
function processOf(
	state: { row: string[]; calls: number; node?: string },
	firstRead?: string[],
	callMs = 0,
): Helpers {
	let stale = firstRead;
	// a store call of `callMs` between its read and its write (a loaded database, a busy worker)
	const between = () =>
		new Promise((resolve) => (callMs > 0 ? setTimeout(resolve, callMs) : setImmediate(resolve)));
	return {
		async checkProcessedAndRecord(items: Array<string | number>) {
			state.calls++;
			const read = [...(stale ?? state.row)];
			stale = undefined;
			await between();
			const out: IDataObject & { new: string[]; processed: string[] } = { new: [], processed: [] };
			for (const item of items.map(String)) {
				if (read.includes(item)) out.processed.push(item);
				else {
					out.new.push(item);
					read.push(item);
				}
			}
			state.row = read;
			return out;
		},
		async removeProcessed(items: Array<string | number>) {
			state.calls++;
			const read = [...state.row];
			await between();
			state.row = read.filter((entry) => !items.map(String).includes(entry));
		},
	} as unknown as Helpers;
}

/** Another process's store call that reads the row now and writes it back, with its key `theirs`, `ms` later. */
function staleWrite(state: { row: string[] }, ms: number): Promise<void> {
	const read = [...state.row];
	return new Promise<void>((resolve) =>
		setTimeout(() => {
			state.row = [...read, 'theirs'];
			resolve();
		}, ms),
	);
}

describe('claimChanges: keys another process dropped are recorded again', () => {
	test('a stale write landing 300 ms after the claim: the keys are back before the claim returns', async () => {
		const { state, helpers, node } = storeRow();
		state.row = ['older'];
		// another process read the row before the claim and writes it back, with its own key, later
		const stale = staleWrite(state, 300);
		const won = await claimChanges(
			helpers,
			node,
			['edit|Deals|1|1700000000000', 'create|Leads|2'],
			'delivery',
		);
		await stale;
		expect([...won].sort()).toEqual(['create|Leads|2', 'edit|Deals|1|1700000000000']);
		expect(state.row).toEqual(
			expect.arrayContaining(['older', 'theirs', 'edit|Deals|1|1700000000000', 'create|Leads|2']),
		);
		// the first check found the keys dropped and recorded them again; a later one found them there
		expect(state.calls).toBeGreaterThanOrEqual(3);
		// a repeat of the same changes (a copy, the catch-up's read) is not emitted again
		expect(
			(
				await claimChanges(
					helpers,
					node,
					['edit|Deals|1|1700000000000', 'create|Leads|2'],
					'delivery',
				)
			).size,
		).toBe(0);
	});

	test('without another writer: one check after the pause, and what was taken is not claimed', async () => {
		const { state, helpers, node } = storeRow();
		state.row = ['create|Leads|2'];
		const won = await claimChanges(helpers, node, ['create|Leads|2', 'delete|Leads|3'], 'delivery');
		expect([...won]).toEqual(['delete|Leads|3']);
		// a delivery's execution marks what it won in the row's next store call (the catch-up's
		// claims yield to the mark), then checks once
		expect(state.calls).toBe(3);
		expect(state.row).toEqual(['create|Leads|2', 'delete|Leads|3', 'delete|Leads|3|delivered']);
	});

	test('an edit too young for any catch-up to read is not marked', async () => {
		const { state, helpers, node } = storeRow();
		const young = `edit|Deals|1|${Math.floor((Date.now() - 2000) / 1000) * 1000}`;
		expect([...(await claimChanges(helpers, node, [young], 'delivery'))]).toEqual([young]);
		expect(state.row).toEqual([young]);
		expect(state.calls).toBe(2);
	});

	test("keys dropped at every check: the warning counts the claimed changes, not the run's key", async () => {
		const { state, helpers, node } = storeRow();
		// another writer whose stale writes land after every store call of ours
		const wiping = {
			...helpers,
			async checkProcessedAndRecord(items: Array<string | number>) {
				const answer = await helpers.checkProcessedAndRecord(items, 'node', { mode: 'entries' });
				state.row = [];
				return answer;
			},
		} as typeof helpers;
		const warnings: string[] = [];
		const log = { info: () => {}, warn: (message: string) => warnings.push(message) };
		const changes = ['create|Leads|2', 'delete|Leads|3'];
		const won = await claimChanges(wiping, node, changes, 'delivery', log, 'run|r-1');
		expect([...won].sort()).toEqual([...changes, 'run|r-1'].sort());
		expect(warnings).toEqual([
			"CRM Trigger: 2 claimed change(s) were still dropped from n8n's deduplication store at the last of 6 checks; another execution may run them again",
		]);
	}, 20_000);
});

describe('claimChanges: the first calls of two processes at once', () => {
	test("n8n's insert of the node's row fails on its primary key for the second: its call is made again and its keys are recorded", async () => {
		const { state, node } = storeRow();
		const inner = processOf(state);
		let calls = 0;
		const helpers = {
			async checkProcessedAndRecord(...args: Parameters<Helpers['checkProcessedAndRecord']>) {
				// the other process inserted the row between this one's read (no row) and its insert
				if (++calls === 1) {
					state.row = ['theirs'];
					throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
				}
				return await inner.checkProcessedAndRecord(...args);
			},
		} as unknown as Helpers;
		expect([...(await claimChanges(helpers, node, ['create|Leads|5'], 'delivery'))]).toEqual([
			'create|Leads|5',
		]);
		expect(state.row).toEqual(['theirs', 'create|Leads|5', 'create|Leads|5|delivered']);
	});
});

describe("claimChanges: a process's later calls record again what its claims won lately", () => {
	const created = 'create|Leads|7';

	test("a write that dropped a claim's keys after its last check: the next claim of the process records them again, and the catch-up's later read on another process drops the change", async () => {
		const { state, helpers, node } = storeRow();
		state.row = ['older'];
		expect([...(await claimChanges(helpers, node, [created], 'delivery'))]).toEqual([created]);
		// another process, stalled between its read (before the claim) and its write, lands it now
		state.row = ['older', 'theirs'];
		// this process's next claim, of another change, carries the dropped key again
		expect([...(await claimChanges(helpers, node, ['create|Leads|8'], 'delivery'))]).toEqual([
			'create|Leads|8',
		]);
		expect(state.row).toEqual(expect.arrayContaining([created, 'create|Leads|8', 'theirs']));
		// the catch-up, a minute later on a worker of its own, finds the change emitted
		const catchUp = claimsOfAnotherProcess();
		expect([...(await catchUp(processOf(state), node, [created], 'catch-up'))]).toEqual([]);
	});

	test('a change this process won lately is taken, also while the row has lost it', async () => {
		const { state, helpers, node } = storeRow();
		expect([...(await claimChanges(helpers, node, [created], 'delivery'))]).toEqual([created]);
		state.row = [];
		expect([...(await claimChanges(helpers, node, [created], 'catch-up'))]).toEqual([]);
		// and the row has it again
		expect(state.row).toContain(created);
	});

	test("a node's keys go back to its own row only", async () => {
		const one = storeRow();
		const two = storeRow();
		await claimChanges(one.helpers, one.node, [created], 'delivery');
		await claimChanges(two.helpers, two.node, ['create|Leads|9'], 'delivery');
		expect(two.state.row).not.toContain(created);
		expect(one.state.row).not.toContain('create|Leads|9');
	});
});

describe('claimChanges: a delivery and the catch-up claiming the same change', () => {
	const key = 'edit|Deals|1|1700000000000';

	test('first claims overlapping in the store: the delivery emits it, the catch-up drops it', async () => {
		const state = { row: ['older'], calls: 0 };
		const before = [...state.row];
		// the catch-up, on another process, read the row before the delivery's first write landed
		const [delivered, caughtUp] = await Promise.all([
			claimChanges(processOf(state), 'overlap|1', [key], 'delivery'),
			claimsOfAnotherProcess()(processOf(state, before), 'overlap|1', [key], 'catch-up'),
		]);
		expect([...delivered]).toEqual([key]);
		expect([...caughtUp]).toEqual([]);
	});

	test("overlapping, with the delivery's store calls slow (its mark comes 2 s after its first write): the catch-up still drops it", async () => {
		const state = { row: ['older'], calls: 0 };
		const before = [...state.row];
		const [delivered, caughtUp] = await Promise.all([
			claimChanges(processOf(state, undefined, 400), 'overlap|2', [key], 'delivery'),
			claimsOfAnotherProcess()(processOf(state, before), 'overlap|2', [key], 'catch-up'),
		]);
		expect([...delivered]).toEqual([key]);
		expect([...caughtUp]).toEqual([]);
	}, 20_000);

	test('overlapping, with the delivery on another process whose store calls are slow (its first check 9 s after its first write): its mark, written in the same turn as its key, is there when the catch-up looks', async () => {
		const state = { row: ['older'], calls: 0 };
		const before = [...state.row];
		// the delivery's worker: each store call 1.5 s; the catch-up's first call read the row before
		// the delivery's first write and wrote it back at once
		const [delivered, caughtUp] = await Promise.all([
			claimsOfAnotherProcess()(processOf(state, undefined, 1500), 'overlap|3', [key], 'delivery'),
			claimChanges(processOf(state, before), 'overlap|3', [key], 'catch-up'),
		]);
		expect([...delivered]).toEqual([key]);
		expect([...caughtUp]).toEqual([]);
	}, 30_000);

	test('the catch-up first, the delivery later: the catch-up emits it, the delivery drops it', async () => {
		const { helpers, node } = storeRow();
		expect([...(await claimChanges(helpers, node, [key], 'catch-up'))]).toEqual([key]);
		expect([...(await claimChanges(helpers, node, [key], 'delivery'))]).toEqual([]);
	});

	test('the delivery first, the catch-up later: the catch-up drops it', async () => {
		const { helpers, node } = storeRow();
		expect([...(await claimChanges(helpers, node, [key], 'delivery'))]).toEqual([key]);
		expect([...(await claimChanges(helpers, node, [key], 'catch-up'))]).toEqual([]);
	});
});

describe('claimChanges: claims of one process waiting at once go together as one store call', () => {
	const old = (id: number) => `edit|Deals|${id}|1700000000000`;

	test('ten deliveries claiming at once: each wins its own changes, in far fewer calls than ten claims alone (30)', async () => {
		const { state, node } = storeRow();
		// each call takes a while, as a whole-row write does under a burst
		const slow = processOf(state, undefined, 50);
		const ids = Array.from({ length: 10 }, (_, index) => index + 1);
		const won = await Promise.all(
			ids.map(async (id) => await claimChanges(slow, node, [old(id), old(id + 100)], 'delivery')),
		);
		ids.forEach((id, index) =>
			expect([...won[index]].sort()).toEqual([old(id), old(id + 100)].sort()),
		);
		// the first claim alone; the nine that waited for it with its marks; their marks; the checks
		expect(state.calls).toBe(4);
		for (const id of ids)
			expect(state.row).toEqual(
				expect.arrayContaining([old(id), `${old(id)}|delivered`, old(id + 100)]),
			);
	});

	test('two copies of a delivery claiming at once in one process: one wins each change, the other none', async () => {
		const { state, node } = storeRow();
		const slow = processOf(state, undefined, 50);
		// a third claim first, so that the two copies wait for the same call
		const [, one, two] = await Promise.all([
			claimChanges(slow, node, [old(7)], 'delivery'),
			claimChanges(slow, node, [old(1), old(2)], 'delivery'),
			claimChanges(slow, node, [old(2), old(1)], 'delivery'),
		]);
		expect([...one].sort()).toEqual([old(1), old(2)]);
		expect([...two]).toEqual([]);
	});

	test('a delivery and a catch-up of one process claiming the same change at once: it is emitted once', async () => {
		const { state, node } = storeRow();
		const slow = processOf(state, undefined, 50);
		const [, delivered, caughtUp] = await Promise.all([
			claimChanges(slow, node, [old(8)], 'delivery'),
			claimChanges(slow, node, [old(3)], 'delivery'),
			claimChanges(slow, node, [old(3)], 'catch-up'),
		]);
		expect([...delivered]).toEqual([old(3)]);
		expect([...caughtUp]).toEqual([]);
	});
});

describe('releaseChanges: the claims of changes an execution could not emit are given back', () => {
	test("a stale write puts the released keys back after the first removal: the second takes them out, and this process's next claim of the change wins it", async () => {
		const { state, helpers, node } = storeRow();
		const key = 'edit|Deals|5|1700000000000';
		expect([...(await claimChanges(helpers, node, [key], 'catch-up'))]).toEqual([key]);
		// the catch-up's look for a delivery's mark recorded the mark: given back too
		expect(state.row).toEqual(expect.arrayContaining([key, `${key}|delivered`]));
		// another process read the row now and writes it back, with its own key, after the first removal
		const stale = staleWrite(state, 300);
		await releaseChanges(helpers, node, [key]);
		await stale;
		expect(state.row).toContain('theirs');
		expect(state.row).not.toContain(key);
		expect(state.row).not.toContain(`${key}|delivered`);
		// the next catch-up's claim, in this process (whose recent keys forgot the change), wins it
		expect([...(await claimChanges(helpers, node, [key], 'catch-up'))]).toEqual([key]);
	}, 30_000);
});
