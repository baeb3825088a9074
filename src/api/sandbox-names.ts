/** The sandbox backends by name (`--sandbox`'s choices) and the default. */
export { DEFAULT_SANDBOX, SANDBOX_NAMES } from '../sandbox/registry.js';
