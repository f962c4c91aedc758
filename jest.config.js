/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json', diagnostics: false }],
	},
	setupFiles: ['<rootDir>/test/harness/env.ts'],
	testTimeout: 60000,
	// sandbox servers and n8n engines are heavy: two workers match the 2-core machines
	maxWorkers: 2,
};
