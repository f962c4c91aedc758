// `npm run bench` (bench/cli.mts) runs the measurements as a one-file jest project (bench/*.bench.ts).
// Why jest: the bench drives the package's TypeScript nodes inside n8n-core's engine, exactly as the
// test suite does, so it reuses ts-jest and the test harness (test/harness/*) with no build step and
// no second TypeScript loader to keep in sync. (Node 24's type stripping alone cannot load the nodes:
// their imports are extensionless.) It is not part of `npm test` (roots: test/), and never shipped
// (package.json "files" lists dist only).
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '..',
	roots: ['<rootDir>/bench'],
	testMatch: ['**/*.bench.ts'],
	testEnvironment: 'node',
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json', diagnostics: false }],
	},
	setupFiles: ['<rootDir>/test/harness/env.ts'],
	// one run takes about 4 minutes on 2 cores; one file, one worker, in band
	testTimeout: 20 * 60_000,
	maxWorkers: 1,
	verbose: false,
};
