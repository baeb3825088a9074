/** The test runners' report formats (`task from-commit --format`'s choices): loads the eight runners, so only commands that need them import it. */
export { REPORT_FORMATS } from '../runners/registry.js';
