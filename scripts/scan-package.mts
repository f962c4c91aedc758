// n8n's verification scanner (@n8n/scan-community-package) on the package as it would be published.
//
// The scanner's command line only takes a published `<name>[@version]`: it reads the registry
// metadata, requires an npm provenance attestation and downloads the attested source from GitHub
// (analyzePackageByName in scanner/scanner.mjs). Its lint step, `analyzePackage(dir, patterns)`,
// is exported and works on any folder, so this script runs the same two legs on local files:
//   - the source leg: the repository with the scanner's SOURCE_FILE_PATTERNS (package.json,
//     nodes/ and credentials/ sources);
//   - the tarball leg: the `npm pack`ed tarball, unpacked, with `**/*.js` and `package.json`.
// Any finding fails the run. The build must exist (`npm run build`).
//
//   node --experimental-strip-types scripts/scan-package.mts
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { packPackage, REPO, run } from './n8n-runtime.mts';

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}
interface Scanner {
	analyzePackage(dir: string, patterns?: string[]): Promise<ScanResult>;
	SOURCE_FILE_PATTERNS: string[];
}

async function main(): Promise<number> {
	// the package ships no type declarations: the module is typed by the Scanner interface above
	const scannerModule = '@n8n/scan-community-package/scanner/scanner.mjs';
	const scanner = (await import(scannerModule)) as Scanner;
	const { version, tarball } = await packPackage((m) => console.log(m));
	const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-scan-'));
	try {
		const unpacked = path.join(dir, 'package');
		mkdirSync(unpacked);
		await run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], {
			cwd: dir,
			logFile: path.join(dir, 'scan.log'),
		});
		const legs: Array<[string, ScanResult]> = [
			['source (repository)', await scanner.analyzePackage(REPO, scanner.SOURCE_FILE_PATTERNS)],
			[
				`tarball (${path.basename(tarball)})`,
				await scanner.analyzePackage(unpacked, ['**/*.js', 'package.json']),
			],
		];
		let failed = 0;
		for (const [leg, result] of legs) {
			console.log(
				`${result.passed ? '✔' : '✘'} ${leg}${result.passed ? '' : `: ${result.message}`}`,
			);
			if (result.details) console.log(result.details);
			if (!result.passed) failed++;
		}
		console.log(
			`scan-community-package: n8n-nodes-crm-service@${version}, ${failed === 0 ? '0 findings' : `${failed} leg(s) with findings`}`,
		);
		return failed === 0 ? 0 : 1;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(
			`scan failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
		);
		process.exit(1);
	},
);
