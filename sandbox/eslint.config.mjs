// The code outside the package is linted without the community-node rules: see
// ../scripts/eslint-outside-package.mjs.
export { default } from '../scripts/eslint-outside-package.mjs';
