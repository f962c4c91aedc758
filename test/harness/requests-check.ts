// jest `setupFilesAfterEnv`: after each test file, the requests its nodes sent are checked against
// the operation table (test/harness/requests.ts); one the table does not allow fails the file.
import { describeMismatches, saveTotals } from './requests';

afterAll(() => {
	const totals = saveTotals(expect.getState().testPath ?? 'unknown');
	if (totals.mismatches.length > 0) {
		throw new Error(
			`${totals.mismatches.length} of ${totals.requests} requests the nodes sent differ from docs/protocol.md §5 (docs/operations.json):\n${describeMismatches(totals.mismatches)}`,
		);
	}
});
