// Blueprint (docs/protocol.md §5.8): GetBlueprint (a record's process and its available transitions)
// and UpdateBlueprint (move a record through a transition with the transition's data), one file
// each.
//
// One process is seeded: "Enterprise Deal Process" on Deals, process field `Stage`. A deal is in
// the process while it was entered (demo deals of the Enterprise pipeline at an open process
// stage, and deals created later that match the entry criteria) and its Stage is an open stage of
// the process. While it is, a plain update that changes `Stage` is refused per item with
// RECORD_IN_BLUEPRINT (a record guard, records.ts); only UpdateBlueprint moves it. Reaching
// Closed Won / Closed Lost completes the process. Documents: `blueprints` (the process with its
// transitions) and `blueprint_records` (one per record in the process, with its history).
// Helpers, the seed and the guard in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { seedOnce } from '../shared.ts';
import { getBlueprint } from './get-blueprint.ts';
import { blueprintGuard, enter, membershipKey, processOf, seedBlueprint } from './shared.ts';
import { updateBlueprint } from './update-blueprint.ts';

export function registerBlueprint(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'blueprint', seedBlueprint);
	sandbox.recordGuards.push(blueprintGuard(sandbox));
	// records created later enter the process when they match its entry criteria; deleted ones leave it
	sandbox.store.onChange((event) => {
		if (sandbox.isClosing || (event.operation !== 'insert' && event.operation !== 'delete')) return;
		const process = processOf(sandbox, event.module);
		if (!process) return;
		for (const change of event.changes) {
			if (event.operation === 'delete') {
				sandbox.store.deleteDoc('blueprint_records', membershipKey(event.module, change.id));
				continue;
			}
			const record = sandbox.store.getRecord(event.module, change.id);
			if (record) enter(sandbox, process, record);
		}
	});
	router.register([getBlueprint, updateBlueprint]);
}
