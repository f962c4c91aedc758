// The code outside the package is linted without the community-node rules: see
// ./eslint-outside-package.mjs. The tools read JSON answers of any shape.
import outside from './eslint-outside-package.mjs';

export default [
	...outside,
	{ files: ['**/*.ts', '**/*.mts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
];
