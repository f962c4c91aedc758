/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json', diagnostics: false }],
	},
	setupFiles: ['<rootDir>/test/harness/env.ts'],
	// every request the nodes send is checked against docs/operations.json (test/harness/requests.ts)
	setupFilesAfterEnv: ['<rootDir>/test/harness/requests-check.ts'],
	globalSetup: '<rootDir>/test/harness/requests-setup.ts',
	globalTeardown: '<rootDir>/test/harness/requests-summary.ts',
	testTimeout: 60000,
	// sandbox servers and n8n engines are heavy: two workers match the 2-core machines
	maxWorkers: 2,
};
