// ESLint for the code that is never published: sandbox/, test/, scripts/ and bench/ (each folder's
// eslint.config.mjs starts from this one). It is n8n's config of ../eslint.config.mjs without the
// community-node rules, which are for the package's sources (nodes/, credentials/) alone.
// `npm run lint` has ESLint take each file's nearest config (flag v10_config_lookup_from_file), so
// the package's own config stays n8n's template, as `n8n-node lint` checks in strict mode.
import { config } from '@n8n/node-cli/eslint';

/** Entries of n8n's config that concern the package alone: community-node rules, package.json, nodes/, credentials/. */
const packageOnly = (entry) =>
	Boolean(entry.plugins?.['@n8n/community-nodes']) ||
	(entry.files ?? []).some((pattern) => pattern === 'package.json' || pattern.startsWith('./'));

const sources = ['**/*.ts', '**/*.mts'];

export default [
	...config
		.filter((entry) => !packageOnly(entry))
		.map((entry) => (entry.files ? { ...entry, files: sources } : entry)),
	// command-line tools and their reports print to the console
	{ files: sources, rules: { 'no-console': 'off' } },
];
