// The claim protocol of nodes/CrmTrigger/dedupe.ts against the lost update of n8n's store: the row
// is read and written back whole, so another process's write based on an older read drops our keys.
import type { IDataObject } from 'n8n-workflow';

import { claimChanges } from '../../../nodes/CrmTrigger/dedupe';

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

type Helpers = Parameters<typeof claimChanges>[0];

/** One row of n8n's store ("entries" mode) and a writer of another process that read it earlier. */
function storeRow() {
	const state = { row: [] as string[], calls: 0 };
	const helpers = processOf(state);
	return { state, helpers };
}

/**
 * One process's view of the row. `firstRead`: what its first call reads instead of the row (a read
 * that came before another process's write, as when two first claims overlap).
 */
function processOf(
	state: { row: string[]; calls: number },
	firstRead?: string[],
	callMs = 0,
): Helpers {
	let stale = firstRead;
	return {
		async checkProcessedAndRecord(items: Array<string | number>) {
			state.calls++;
			const read = [...(stale ?? state.row)];
			stale = undefined;
			// a store call of `callMs` between its read and its write (a loaded database, a busy worker)
			await new Promise((resolve) =>
				callMs > 0 ? setTimeout(resolve, callMs) : setImmediate(resolve),
			);
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
	} as unknown as Helpers;
}

describe('claimChanges: keys another process dropped are recorded again', () => {
	test('a stale write landing 300 ms after the claim: the keys are back before the claim returns', async () => {
		const { state, helpers } = storeRow();
		state.row = ['older'];
		const staleRead = [...state.row];
		// another process read the row before the claim and writes it back, with its own key, later
		const stale = new Promise<void>((resolve) =>
			setTimeout(() => {
				state.row = [...staleRead, 'theirs'];
				resolve();
			}, 300),
		);
		const won = await claimChanges(helpers, ['edit|Deals|1|1700000000000', 'create|Leads|2']);
		await stale;
		expect([...won].sort()).toEqual(['create|Leads|2', 'edit|Deals|1|1700000000000']);
		expect(state.row).toEqual(
			expect.arrayContaining(['older', 'theirs', 'edit|Deals|1|1700000000000', 'create|Leads|2']),
		);
		// the first check found the keys dropped and recorded them again; a later one found them there
		expect(state.calls).toBeGreaterThanOrEqual(3);
		// a repeat of the same changes (a copy, the catch-up's read) is not emitted again
		expect(
			(await claimChanges(helpers, ['edit|Deals|1|1700000000000', 'create|Leads|2'])).size,
		).toBe(0);
	});

	test('without another writer: one check after the pause, and what was taken is not claimed', async () => {
		const { state, helpers } = storeRow();
		state.row = ['create|Leads|2'];
		const won = await claimChanges(helpers, ['create|Leads|2', 'delete|Leads|3']);
		expect([...won]).toEqual(['delete|Leads|3']);
		// a delivery's execution marks what it won at once, in the same turn (the catch-up's claims
		// yield to the mark), then checks once
		expect(state.calls).toBe(3);
		expect(state.row).toEqual(['create|Leads|2', 'delete|Leads|3', 'delete|Leads|3|delivered']);
	});

	test('an edit too young for any catch-up to read is not marked', async () => {
		const { state, helpers } = storeRow();
		const young = `edit|Deals|1|${Math.floor((Date.now() - 2000) / 1000) * 1000}`;
		expect([...(await claimChanges(helpers, [young]))]).toEqual([young]);
		expect(state.row).toEqual([young]);
		expect(state.calls).toBe(2);
	});
});

describe('claimChanges: a delivery and the catch-up claiming the same change', () => {
	const key = 'edit|Deals|1|1700000000000';

	test('first claims overlapping in the store: the delivery emits it, the catch-up drops it', async () => {
		const state = { row: ['older'], calls: 0 };
		const before = [...state.row];
		// the catch-up's first call read the row before the delivery's first write landed
		const [delivered, caughtUp] = await Promise.all([
			claimChanges(processOf(state), [key], 'delivery'),
			claimChanges(processOf(state, before), [key], 'catch-up'),
		]);
		expect([...delivered]).toEqual([key]);
		expect([...caughtUp]).toEqual([]);
	});

	test("overlapping, with the delivery's store calls slow (its mark comes 2 s after its first write): the catch-up still drops it", async () => {
		const state = { row: ['older'], calls: 0 };
		const before = [...state.row];
		const [delivered, caughtUp] = await Promise.all([
			claimChanges(processOf(state, undefined, 400), [key], 'delivery'),
			claimChanges(processOf(state, before), [key], 'catch-up'),
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
			claimsOfAnotherProcess()(processOf(state, undefined, 1500), [key], 'delivery'),
			claimChanges(processOf(state, before), [key], 'catch-up'),
		]);
		expect([...delivered]).toEqual([key]);
		expect([...caughtUp]).toEqual([]);
	}, 30_000);

	test('the catch-up first, the delivery later: the catch-up emits it, the delivery drops it', async () => {
		const { helpers } = storeRow();
		expect([...(await claimChanges(helpers, [key], 'catch-up'))]).toEqual([key]);
		expect([...(await claimChanges(helpers, [key], 'delivery'))]).toEqual([]);
	});

	test('the delivery first, the catch-up later: the catch-up drops it', async () => {
		const { helpers } = storeRow();
		expect([...(await claimChanges(helpers, [key], 'delivery'))]).toEqual([key]);
		expect([...(await claimChanges(helpers, [key], 'catch-up'))]).toEqual([]);
	});
});
