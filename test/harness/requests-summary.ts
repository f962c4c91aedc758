// jest `globalTeardown`: the totals of every request the nodes sent during the run, checked
// against the operation table (test/harness/requests.ts): `N operations seen, M requests, K
// mismatches`. A mismatch fails the run (its test file has failed already, naming the request).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { describeMismatches, OPERATIONS, REQUEST_LOG_DIR_ENV } from './requests';
import type { FileTotals } from './requests';

export default function summary(): void {
	const dir = process.env[REQUEST_LOG_DIR_ENV];
	if (!dir) return;
	let files: FileTotals[] = [];
	try {
		files = readdirSync(dir).map(
			(name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as FileTotals,
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	const operations = new Set(files.flatMap((f) => f.operations));
	const requests = files.reduce((sum, f) => sum + f.requests, 0);
	const mismatches = files.flatMap((f) => f.mismatches);
	console.log(
		`\nRequests of the nodes against docs/protocol.md §5: ${operations.size} operations seen (of ${OPERATIONS.length}), ${requests} requests, ${mismatches.length} mismatches`,
	);
	if (mismatches.length > 0)
		throw new Error(
			`requests that differ from the operation table:\n${describeMismatches(mismatches)}`,
		);
}
